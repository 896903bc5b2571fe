#!/usr/bin/env bash
# The lecturer's own lessons (issue 31, item 6): lessons in $XDG_DATA_HOME/rope-lab/lessons and
# in --lessons-dir come after the shipped ones; one with a shipped lesson's file name takes its
# place (and says so); a broken one is listed with its first error and hides none of the others;
# `lessons --check` checks them all; the picture commands open them by name; a --lessons-dir that
# is not a folder is refused; an own folder that is the shipped one (installed with --prefix
# ~/.local) is read once.
set -euo pipefail
rope=$1 shipped=$2
# shellcheck source=../crash_report.sh
source "$(dirname "$0")/../crash_report.sh"   # rope_run: a crash's report printed and kept
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail() { echo "$*"; exit 1; }
n_shipped=$(find "$shipped" -maxdepth 1 -name '*.lesson' | wc -l)
own=data/rope-lab/lessons
mkdir -p "$own" extra
# lesson 3 as the lecturer rewrote it, a lesson of their own, a broken one, and one elsewhere
sed 's/^title: .*/title: Rotation in the plane, my way/' "$shipped/03-rope-2d.lesson" > "$own/03-rope-2d.lesson"
sed 's/^title: .*/title: My own first lesson/' "$shipped/01-why-positions.lesson" > "$own/50-mine.lesson"
printf 'title: Half written\nstep: One\nshow: dim=3\n' > "$own/60-draft.lesson"
sed 's/^title: .*/title: From the course folder/' "$shipped/02-sinusoidal.lesson" > extra/70-course.lesson

export XDG_DATA_HOME=$dir/data ROPE_LAB_LESSONS=$shipped
unset ROPE_LAB_OWN_LESSONS
status=0
rope_run own-lessons "$rope" lessons > list.txt 2> err.txt || status=$?
cat list.txt
[[ $status -eq 2 ]] || fail "a broken lesson: exit $status, not 2"
[[ $(wc -l < list.txt) -eq $((n_shipped + 2)) ]] || fail "not $((n_shipped + 2)) lessons listed"
grep -q '^03-rope-2d .*Rotation in the plane, my way  (yours, in place of the shipped one: ' list.txt ||
  fail "lesson 3 is not the lecturer's, marked as replacing the shipped one"
[[ $(sed -n 3p list.txt) == 03-rope-2d* ]] || fail "the replacing lesson 3 is not third"
[[ $(sed -n "$((n_shipped + 1))p" list.txt) == "50-mine "*"My own first lesson  (yours: "* ]] ||
  fail "the own lesson is not listed right after the shipped ones"
[[ $(sed -n "$((n_shipped + 2))p" list.txt) == "60-draft "* ]] || fail "the broken lesson is not listed"
grep -q '60-draft.lesson:3:.*dim' err.txt || { cat err.txt; fail "the broken lesson's error names no line"; }
grep -vq '60-draft' err.txt && { cat err.txt; fail "errors of other lessons"; }

# the folders of the run, shipped first
rope_run own-lessons "$rope" lessons --folders --lessons-dir extra > folders.txt
printf 'shipped  %s\nyours    %s\nyours    %s\n' "$shipped" "$dir/$own" "$dir/extra" | diff - folders.txt ||
  fail "lessons --folders: not the three folders"
XDG_DATA_HOME=$dir/empty rope_run own-lessons "$rope" lessons --folders | grep -qx "yours    $dir/empty/rope-lab/lessons  (no such folder yet)" ||
  fail "lessons --folders: a missing folder not said"

# --lessons-dir adds a folder after XDG_DATA_HOME's; without the draft, every lesson checks clean
rm "$own/60-draft.lesson"
rope_run own-lessons "$rope" lessons --lessons-dir extra > list.txt
[[ $(tail -1 list.txt) == "70-course "*"From the course folder  (yours: $dir/extra/70-course.lesson)" ]] ||
  { cat list.txt; fail "--lessons-dir's lesson is not last"; }
rope_run own-lessons "$rope" lessons --check --lessons-dir extra > check.txt
grep -qx "$((n_shipped + 2)) lesson files checked, no problems" check.txt || { cat check.txt; fail "not every lesson checked"; }

# pictures: the own lesson by name, the replaced lesson 3 is the lecturer's (its title on screen)
rope_run own-lessons "$rope" screenshot --lesson mine --step 1 --size 960x540 -o mine.png > /dev/null
rope_run own-lessons "$rope" screenshot --lesson 3 --step 1 --size 960x540 -o three-own.png > /dev/null
XDG_DATA_HOME=$dir/empty rope_run own-lessons "$rope" screenshot --lesson 3 --step 1 --size 960x540 \
  -o three-shipped.png > /dev/null
XDG_DATA_HOME=$dir/empty rope_run own-lessons "$rope" screenshot --lesson 1 --step 1 --size 960x540 \
  -o one.png > /dev/null
cmp -s three-own.png three-shipped.png && fail "lesson 3 was drawn from the shipped file"
cmp -s mine.png one.png && fail "the own lesson drew lesson 1's picture (its title differs)"
status=0
rope_run own-lessons "$rope" screenshot --lesson course -o x.png 2> err.txt || status=$?
[[ $status -eq 2 ]] || fail "a lesson of a folder not given: exit $status"
grep -q "70-course" err.txt && fail "the course folder was read without --lessons-dir"

# a --lessons-dir that is not a folder
for bad in nowhere mine.png; do
  status=0
  rope_run own-lessons "$rope" lessons --lessons-dir "$bad" > /dev/null 2> err.txt || status=$?
  [[ $status -eq 2 ]] || fail "--lessons-dir $bad: exit $status, not 2"
  grep -qx "rope-lab: error: --lessons-dir: '$bad' is not a folder; give the folder that holds your .lesson files" err.txt ||
    { cat err.txt; fail "--lessons-dir $bad: not the message"; }
done

# installed with --prefix ~/.local: the shipped folder is XDG_DATA_HOME's; read once, as shipped
mkdir -p home/rope-lab && cp -r "$shipped" home/rope-lab/lessons
XDG_DATA_HOME=$dir/home ROPE_LAB_LESSONS=$dir/home/rope-lab/lessons rope_run own-lessons "$rope" lessons > list.txt
[[ $(wc -l < list.txt) -eq $n_shipped ]] || fail "the shipped folder as XDG's: not $n_shipped lessons"
grep -q yours list.txt && fail "shipped lessons marked as the lecturer's"
echo "own lessons: after the shipped $n_shipped, lesson 3 replaced and marked, a broken one listed with its error," \
     "--lessons-dir read last and checked, pictures of own lessons, a bad folder refused, the shipped folder read once"
