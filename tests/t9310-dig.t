#!/bin/bash
# lore-am dig COMMIT: the series a commit was applied from, found in a
# real public-inbox-httpd with a Xapian index (patchid: and s:/f:
# searches work as on lore). Three revisions of a three-patch series,
# each a thread of its own; the maintainer applied v2.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-pi.sh"
. "$TEST_DIR/lib-net.sh"

pi_have_httpd || skip_all "public-inbox-httpd not installed"
plan 16

cd "$TRASH" || exit 1
make_repo repo || exit 1
# revision R of the series on branch vR, sent as its own thread
for r in 1 2 3; do
	dig_revision "$r" || exit 1
done
to_mbox all.mbox v1/*.patch v2/*.patch v3/*.patch
pi_serve linux-foo all.mbox || exit 1
V2C=$(msgid_of v2/v2-0000-cover-letter.patch)
V2P2=$(msgid_of v2/v2-0002-part-add-piece-2.patch)
V3P3=$(msgid_of v3/v3-0003-part-add-piece-3.patch)

git clone -q repo maint && git -C maint checkout -q -b work base &&
	git -C maint am -q "$TRASH"/v2/v2-000[123]-*.patch || exit 1

# -a (b4 dig -a): every revision; plain dig gives the best match only
# (tests/t9311-dig-options.t)
(cd maint && lore dig dig -a HEAD~1)
is "$(cat dig.rc)" 0 "dig -a on v2's patch 2: exit 0"
check "... found by its patch-id" grep -qxF "      => patch 2/3: the same patch-id" dig.out
check "... v1, v2 and v3 listed, in order, with dates" eval \
	'[ "$(grep -o "^  v[0-9]: \|Date: 2024-01-0[0-9]" dig.out | tr -d " " | tr "\n" ,)" = "v1:,Date:2024-01-01,v2:,Date:2024-01-02,v3:,Date:2024-01-03," ]'
check "... v2 by its cover letter's subject" grep -qxF "  v2: [PATCH v2 0/3] part: the feature" dig.out
is "$(grep -c "^  v[123]: \[PATCH v[123] 0/3\] part: the feature$" dig.out)" 3 "... each revision by its cover letter"
check "... and the commit is v2's patch 2/3, by its Message-ID" \
	grep -qxF "      $PI_URL/linux-foo/$V2P2/" dig.out
is "$(grep -c 'the same patch-id' dig.out)" 1 "... the only match by patch-id"
is "$(cat dig.err)" "---
This patch belongs in the following series:
---" "... stderr: b4's heading, no error"

# the maintainer reworded the title: the patch-id still finds it
git -C maint checkout -q -b reword base &&
	git -C maint am -q "$TRASH"/v3/v3-000[123]-*.patch &&
	git -C maint commit -q --amend -m "part: the third piece, reworded" || exit 1
(cd maint && lore reword dig HEAD)
is "$(cat reword.rc)" 0 "a reworded title: exit 0"
is "$(cat reword.out)" "$PI_URL/linux-foo/$V3P3/" "... found by its patch-id, v3's patch 3/3"

# the same title and author, the diff changed when it was applied
git -C maint checkout -q -b changed base &&
	printf 'piece 1, changed\n' >maint/part1.c && git -C maint add part1.c &&
	GIT_AUTHOR_NAME="Pat Contributor" GIT_AUTHOR_EMAIL=pat@example.com \
	git -C maint commit -q -m "part: add piece 1" || exit 1
(cd maint && lore changed dig -a HEAD)
is "$(cat changed.rc)" 0 "another diff, the same subject and author: exit 0"
is "$(grep -c "=> patch 1/3: the same subject, another diff" changed.out)" 3 \
	"... found by its subject and author, every revision's patch 1"

# not in the archive; not a commit; no archive to ask
printf 'new\n' >maint/new.c
git -C maint add new.c && git -C maint commit -q -m "new: a commit nobody sent"
(cd maint && lore none dig HEAD)
fails none 1 "[0-9a-f]{12} is not in the archive" \
	"a commit the archive does not have: exit 1, one line"
(cd maint && lore bad dig no-such-ref)
fails bad 2 "'no-such-ref' is not a commit in this repository" \
	"not a commit: exit 2, one line"
(cd maint && lore opt --source=mbox -m ../all.mbox dig HEAD)
fails opt 2 "dig asks an archive's search, and none is set" \
	"no archive: exit 2, one line"
(cd / && lore out dig HEAD)
fails out 2 "dig runs in a git repository" "outside a repository: exit 2"
