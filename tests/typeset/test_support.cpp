// test_support.cpp — font fixture and the equation corpus (test_support.h).
#include "test_support.h"

namespace rope::typeset::test {

const MathFont* font() {
  static const FontLoad loaded = MathFont::load(MathFont::kDefaultPath);
  return loaded.font.get();
}

const Values& corpus_values() {
  static const Values v{{"base", "10000"}, {"dim", "8"},    {"theta0", "1"},
                        {"theta1", "0.1"}, {"m", "3"},      {"c1", "-0.990"},
                        {"s1", "0.141"},   {"c2", "0.955"}, {"s2", "0.296"}};
  return v;
}

const std::vector<CorpusEquation>& corpus() {
  static const std::
      vector<CorpusEquation>
          eqs =
              {
                  // --- Section 6: the 15 RoFormer equations
                  // -------------------------------------------
                  {"eq01 qkv",
                   R"(q_m = f_q(x_m, m), \quad k_n = f_k(x_n, n), \quad v_n = f_v(x_n, n))"},
                  {"eq02 softmax",
                   R"(a_{m,n} = \frac{\exp\left(\frac{q_m^{\top} k_n}{\sqrt{d}}\right)}{\sum_{j=1}^{N} \exp\left(\frac{q_m^{\top} k_j}{\sqrt{d}}\right)}, \qquad o_m = \sum_{n=1}^{N} a_{m,n} v_n)"},
                  {"eq03 sinusoidal",
                   R"(\begin{cases} p_{i,2t} = \sin\left(k / 10000^{2t/d}\right) \\ p_{i,2t+1} = \cos\left(k / 10000^{2t/d}\right) \end{cases})"},
                  {"eq04 inner",
                   R"(\langle f_q(x_m, m), f_k(x_n, n) \rangle = g(x_m, x_n, m - n))"},
                  {"eq05 complex",
                   R"(f_q(x_m, m) = (W_q x_m) e^{i m\theta}, \quad g(x_m, x_n, m - n) = \mathrm{Re}\left[(W_q x_m)(W_k x_n)^{*} e^{i(m-n)\theta}\right])"},
                  {"eq06 2d",
                   R"(f_{\{q,k\}}(x_m, m) = \begin{pmatrix} \cos m\theta & -\sin m\theta \\ \sin m\theta & \cos m\theta \end{pmatrix} \begin{pmatrix} W^{(11)}_{\{q,k\}} & W^{(12)}_{\{q,k\}} \\ W^{(21)}_{\{q,k\}} & W^{(22)}_{\{q,k\}} \end{pmatrix} \begin{pmatrix} x_m^{(1)} \\ x_m^{(2)} \end{pmatrix})"},
                  {"eq07 block diagonal",
                   R"(R^d_{\Theta,m} = \begin{pmatrix}
\cos m\theta_1 & -\sin m\theta_1 & 0 & 0 & \cdots & 0 & 0 \\
\sin m\theta_1 & \cos m\theta_1 & 0 & 0 & \cdots & 0 & 0 \\
0 & 0 & \cos m\theta_2 & -\sin m\theta_2 & \cdots & 0 & 0 \\
0 & 0 & \sin m\theta_2 & \cos m\theta_2 & \cdots & 0 & 0 \\
\vdots & \vdots & \vdots & \vdots & \ddots & \vdots & \vdots \\
0 & 0 & 0 & 0 & \cdots & \cos m\theta_{d/2} & -\sin m\theta_{d/2} \\
0 & 0 & 0 & 0 & \cdots & \sin m\theta_{d/2} & \cos m\theta_{d/2}
\end{pmatrix})"},
                  {"eq08 theta set",
                   R"(\Theta = \left\{\theta_i = 10000^{-2(i-1)/d}, \ i \in [1, 2, \ldots, d/2]\right\})"},
                  {"eq09 relative",
                   R"(q_m^{\top} k_n = \left(R^d_{\Theta,m} W_q x_m\right)^{\top} \left(R^d_{\Theta,n} W_k x_n\right) = x_m^{\top} W_q R^d_{\Theta,n-m} W_k x_n)"},
                  {"eq10 efficient",
                   R"(R^d_{\Theta,m} x = \begin{pmatrix} x_1 \\ x_2 \\ x_3 \\ x_4 \\ \vdots \\ x_{d-1} \\ x_d \end{pmatrix} \otimes \begin{pmatrix} \cos m\theta_1 \\ \cos m\theta_1 \\ \cos m\theta_2 \\ \cos m\theta_2 \\ \vdots \\ \cos m\theta_{d/2} \\ \cos m\theta_{d/2} \end{pmatrix} + \begin{pmatrix} -x_2 \\ x_1 \\ -x_4 \\ x_3 \\ \vdots \\ -x_d \\ x_{d-1} \end{pmatrix} \otimes \begin{pmatrix} \sin m\theta_1 \\ \sin m\theta_1 \\ \sin m\theta_2 \\ \sin m\theta_2 \\ \vdots \\ \sin m\theta_{d/2} \\ \sin m\theta_{d/2} \end{pmatrix})"},
                  {"eq11 abel",
                   R"(\left|\sum_{i=0}^{d/2-1} q_{[2i:2i+1]} k^{*}_{[2i:2i+1]} e^{i(m-n)\theta_i}\right| \le \left(\max_i \left|h_{i+1} - h_i\right|\right) \sum_{i=0}^{d/2-1} \left|S_{i+1}\right|)"},
                  {"eq12 linear",
                   R"(\mathrm{Attention}(Q,K,V)_m = \frac{\sum_{n=1}^{N} \left(R^d_{\Theta,m}\phi(q_m)\right)^{\top} \left(R^d_{\Theta,n}\varphi(k_n)\right) v_n}{\sum_{n=1}^{N} \phi(q_m)^{\top} \varphi(k_n)})"},
                  {"eq13 polar",
                   R"(f_q(x_m, m) = \|\boldsymbol{q}\| e^{i(\Theta_q + m\theta)}, \quad \boldsymbol{q} = W_q x_m)"},
                  {"eq14 underbrace",
                   R"(\boldsymbol{q}^{\top} R_{n-m} \boldsymbol{k} = \underbrace{(q_1 k_1 + q_2 k_2)\cos((n-m)\theta)}_{\text{content term}} + \underbrace{(q_1 k_2 - q_2 k_1)\sin((n-m)\theta)}_{\text{rotation term}})"},
                  {"eq15 aligned",
                   R"(\begin{aligned} \theta_i &= 10000^{-2i/d} \\ \theta_1 &= 10000^{-2/8} = 10^{-1} \\ m\theta_1 &\approx 0.3 \end{aligned})"},
                  // --- RoPE Lab extras
                  // -----------------------------------------------------------------
                  {"rope 8x8 (d = 8, live values)",
                   R"(R^8_{\Theta,m} = \begin{pmatrix}
{{c1}} & -{{s1}} & 0 & 0 & 0 & 0 & 0 & 0 \\
{{s1}} & {{c1}} & 0 & 0 & 0 & 0 & 0 & 0 \\
0 & 0 & {{c2}} & -{{s2}} & 0 & 0 & 0 & 0 \\
0 & 0 & {{s2}} & {{c2}} & 0 & 0 & 0 & 0 \\
0 & 0 & 0 & 0 & \ddots & & & \\
0 & 0 & 0 & 0 & & \ddots & & \\
0 & 0 & 0 & 0 & & & \cos m\theta_4 & -\sin m\theta_4 \\
0 & 0 & 0 & 0 & & & \sin m\theta_4 & \cos m\theta_4
\end{pmatrix})"},
                  {"rope efficient (row form)", R"(\mathrm{RoPE}(\boldsymbol{x}, m) = \boldsymbol{x} \otimes \cos(m\boldsymbol{\theta}) + \mathrm{rotate\_half}(\boldsymbol{x}) \otimes \sin(m\boldsymbol{\theta}), \quad \boldsymbol{\theta} \in \mathbb{R}^{d/2})"},
                  {"rope decay sum",
                   R"(\frac{1}{d/2} \sum_{i=1}^{d/2} \left|S_i\right| \to 0 \text{ as } |m - n| \to \infty, \quad S_j = \sum_{k=0}^{j-1} e^{\mathrm{i}(m-n)\theta_k})"},
                  {"live theta",
                   R"(\theta_1 = {{base}}^{-2\cdot 0/{{dim}}} = {{theta0}}, \qquad \theta_2 = {{theta1}})"},
                  {"scripts and primes",
                   R"(f'(x) = \lim_{h \to 0} \frac{f(x+h) - f(x)}{h}, \quad x_i^2, \ x^{2}_{i}, \ e^{-x^2}, \ A^{\top}, \ \mathbf{W}^{\mathrm{T}})"},
                  {"operators text style",
                   R"(\textstyle \sum_{i=1}^{n} i = \tfrac{n(n+1)}{2}, \quad \int_0^{2\pi} \cos\theta \, d\theta = 0, \quad \prod_{k} p_k)"},
                  {"display integral",
                   R"(\int_{-\infty}^{\infty} e^{-x^2} dx = \sqrt{\pi}, \quad \sqrt[3]{x^3 + y^3}, \quad \nabla_{\!\theta} \mathcal{L}, \quad \partial_m \Re\, z, \ \Im\, z)"},
                  {"accents delimiters",
                   R"(\hat{q}, \bar{x}, \tilde{k}, \vec{v}, \dot{\theta}, \widehat{xy}, \overline{z} \quad \bigl( \Bigl[ \biggl\{ \Biggl\langle x \Biggr\rangle \biggr\} \Bigr] \bigr) \quad \left\| \frac{a}{b} \right\| \left. \frac{d}{dx} \right|_{x=0})"},
                  {"cases and bmatrix",
                   R"(\operatorname{sign}(x) = \begin{cases} 1 & \text{if } x > 0 \\ 0 & \text{if } x = 0 \\ -1 & \text{otherwise} \end{cases} \qquad \begin{bmatrix} a & b \\ c & d \end{bmatrix}^{-1} \ne \begin{vmatrix} a & b \\ c & d \end{vmatrix})"},
                  {"relations and binaries",
                   R"(a \cdot b \times c \le d \ge e \ne f \approx g, \quad x \mapsto y \to z, \quad \{a, b\} \in \mathbb{R}, \quad \theta \in [0, 2\pi), \; -x + (-y) \pm z)"},
                  {"overbrace and color",
                   R"(\overbrace{x_1 + \cdots + x_n}^{n \text{ terms}} = {\color{red} S_n} + \textcolor{#1f77b4}{\varepsilon}, \quad \arg\max_{\theta} \log p_\theta(x), \ \min(a, b), \ \exp(x))"},
                  {"unknown command (error)", R"(a + \foo{b} = c^{)"},
              };
  return eqs;
}

}  // namespace rope::typeset::test
