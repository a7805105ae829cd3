#!/usr/bin/env bash
# checkpatch.pl --strict: 0 errors, 0 warnings, 0 checks on every patch of
# both kernel lines, without git (the form of cited commit ids) and in the
# tree; and a changelog citing a commit by a bare id is caught.
# check: uses tree
. "$(dirname "$0")/lib.sh"
for line in $SW_LINES; do
	SW_BASE=$line "$SCRIPTS/checkpatch" || fail "checkpatch is not clean on the $line line"
done

# A bare id, as a changelog might cite it, and the same commit cited right.
mk() {
	cat <<PATCH
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Jane Poster <jane@example.org>
Date: Mon, 30 Nov 2026 05:19:01 +0000
Subject: [PATCH] sched/fair: Reword a comment

$1

Signed-off-by: Jane Poster <jane@example.org>
---
 kernel/sched/fair.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/kernel/sched/fair.c b/kernel/sched/fair.c
index 1111111111111..2222222222222 100644
--- a/kernel/sched/fair.c
+++ b/kernel/sched/fair.c
@@ -1,3 +1,3 @@
 // SPDX-License-Identifier: GPL-2.0
-/* old */
+/* new */
 #include <linux/sched.h>
--
PATCH
}
mk "The tie-break came with 3edecfef0285 in v5.9." >"$TMP/bare.patch"
mk 'The tie-break of commit 3edecfef0285 ("sched/fair: update_pick_idlest()
Select group with lowest group_util when idle_cpus are equal") came in
v5.9.' >"$TMP/good.patch"
out=$("$SCRIPTS/checkpatch" "$TMP/bare.patch" 2>&1)
rc=$?
grep -q 'GIT_COMMIT_ID' <<<"$out" && [ "$rc" != 0 ] || { echo "$out"; fail "a bare commit id was not caught"; }
echo "bare id caught: $(grep -m1 GIT_COMMIT_ID <<<"$out" | sed 's/^ *//')"
out=$("$SCRIPTS/checkpatch" "$TMP/good.patch" 2>&1) || { echo "$out"; fail "a well-formed citation was refused"; }
echo "commit <id> (\"<subject>\") accepted"
