// Heatmap colouring pass: one triangle that covers the whole viewport (the target texture, one
// fragment per matrix cell). No vertex buffer: positions come from gl_VertexID.

out vec2 v_uv;  // 0 ... 1 across the target

void main() {
  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));  // (0,0) (2,0) (0,2)
  v_uv = p;
  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
