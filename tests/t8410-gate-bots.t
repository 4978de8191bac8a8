#!/bin/bash
# A bot's report answering a patch: the kernel test robot's and syzbot's
# "if you fix the issue in a separate patch/commit, kindly add following
# tags" blocks are for that separate fix, never for the patch under test:
# held back, with a note saying what and why. A reviewer's tags and a
# bot's test result (Reported-and-tested-by:, no such phrase) still go in.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 11

series_repo "$TRASH/repo" 2
fmt "$TRASH/repo" "$TRASH/p"
p1=$TRASH/p/0001-part-add-piece-1.patch
p2=$TRASH/p/0002-part-add-piece-2.patch
# the robot's text as it has sent it since 2023 (tags behind "| ")
reply "$TRASH/r1" "$p1" "kernel test robot <lkp@intel.com>" "Hi Pat,

kernel test robot noticed the following build errors:

[auto build test ERROR on linus/master]

If you fix the issue in a separate patch/commit (i.e. not just a new version of
the same patch/commit), kindly add following tags
| Reported-by: kernel test robot <lkp@intel.com>
| Closes: https://lore.kernel.org/oe-kbuild-all/202401021000.abc-lkp@intel.com/

All errors (new ones prefixed by >>):"
# and as it sent it before (the tags as plain trailer lines)
reply "$TRASH/r2" "$p2" "kernel test robot <lkp@intel.com>" "Hi Pat,

Thank you for the patch! Yet something to improve:

If you fix the issue, kindly add following tag where applicable
Reported-by: kernel test robot <lkp@intel.com>
Link: https://lore.kernel.org/oe-kbuild-all/202401021001.def-lkp@intel.com/

All warnings (new ones prefixed by >>):"
reply "$TRASH/r3" "$p1" "syzbot <syzbot+0123abcd@syzkaller.appspotmail.com>" "Hello,

syzbot found the following issue on:

IMPORTANT: if you fix the issue, please add the following tag to the commit:
Reported-by: syzbot+0123abcd@syzkaller.appspotmail.com"
reply "$TRASH/r4" "$p2" "syzbot <syzbot+4567cdef@syzkaller.appspotmail.com>" "Hello,

syzbot has tested the proposed patch and the reproducer did not trigger any issue:

Reported-and-tested-by: syzbot+4567cdef@syzkaller.appspotmail.com"
reply "$TRASH/r5" "$p1" "Rev Iewer <rev@example.org>" "Looks right.

Reviewed-by: Rev Iewer <rev@example.org>"
to_mbox "$TRASH/t.mbox" "$TRASH"/p/*.patch "$TRASH"/r[1-5]
id=$(msgid_of "$p1")
cd "$TRASH/repo" || exit 1
"$LORE_AM" -m "$TRASH/t.mbox" "$id" >"$TRASH/out" 2>"$TRASH/err"
ok $? "exit 0"
! grep -q "lkp@intel.com" "$TRASH/out"
ok $? "the kernel test robot's Reported-by: is not applied"
! grep -q "oe-kbuild-all" "$TRASH/out"
ok $? "nor its Closes: or Link:"
! grep -q "syzbot+0123abcd" "$TRASH/out"
ok $? "nor syzbot's for a separate fix"
check "syzbot's test result is" grep -qx "Reported-and-tested-by: syzbot+4567cdef@syzkaller.appspotmail.com" "$TRASH/out"
check "and a reviewer's tag" grep -qx "Reviewed-by: Rev Iewer <rev@example.org>" "$TRASH/out"
check "the summary says what was held back and why" grep -qF "NOTE: held back, a bot's tags for a fix made in a separate patch (\"if you fix the issue ..., kindly add\"), not for this one:" "$TRASH/err"
check "the robot's Reported-by: named" grep -qx "    x Reported-by: kernel test robot <lkp@intel.com>" "$TRASH/err"
check "its Link: named" grep -qx "    x Link: https://lore.kernel.org/oe-kbuild-all/202401021001.def-lkp@intel.com/" "$TRASH/err"
check "syzbot's named" grep -qx "    x Reported-by: syzbot+0123abcd@syzkaller.appspotmail.com" "$TRASH/err"
check "with the sender" grep -qx "     Msg From: kernel test robot <lkp@intel.com>" "$TRASH/err"
