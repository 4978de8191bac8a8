#!/bin/bash
# The trailers a patch carries are committed as they were sent; only the
# trailers lore-am adds are formatted. git is the oracle: `git am` of the
# mail itself and `git am` of lore-am's output (with a reviewer's reply in
# the thread) give the same commit message, but for the Reviewed-by that
# lore-am adds where git interpret-trailers puts it. Each row is a trailer
# block as people write them: quoted display names, "addr (Name)", a bare
# <addr>, spaces, a "# note" tail, a "[note]" line, a wrapped address, the
# maintainer's own Signed-off-by moved to the end with -s.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 14

R=$TRASH/repo
make_repo "$R"
(cd "$R" && git checkout -q -b topic base && sed -i 's/^line 5$/line five/' file.c &&
 git commit -q -am "file: spell out line 5" && git format-patch -q -1 --stdout topic) \
	> "$TRASH/fp"
# the diff and its diffstat, below the message
sed -n '/^---$/,$p' "$TRASH/fp" > "$TRASH/below"

cat > "$TRASH/reply" <<'EOF'
From: Rev Iewer <rev@example.com>
Subject: Re: [PATCH] file: spell out line 5
Date: Wed, 4 Jan 2023 09:00:00 +0000
Message-Id: <reply@example.com>
In-Reply-To: <patch@example.com>
References: <patch@example.com>

Reviewed-by: Rev Iewer <rev@example.com>
EOF

git clone -q "$R" "$TRASH/direct" && git -C "$TRASH/direct" checkout -q -b am base
git clone -q "$R" "$TRASH/lore" && git -C "$TRASH/lore" checkout -q -b am base

# oracle DESCRIPTION TRAILERS [LORE-AM-OPTION...]: the patch mail with
# TRAILERS below its message, applied by git am directly and through
# lore-am; the second's message is the first's with the added trailers
# after the last line (and, with -s, the maintainer's Signed-off-by last:
# $MOVED, a line of TRAILERS, moves there as it is), nothing else changed.
# (Not git interpret-trailers: it rewrites the spaces of the block.)
oracle() {
	_desc=$1 _tr=$2; shift 2
	{ echo "From: Pat Contributor <pat@example.com>"
	  echo "Date: Tue, 3 Jan 2023 11:00:00 +0000"
	  echo "Subject: [PATCH] file: spell out line 5"
	  echo "Message-Id: <patch@example.com>"
	  echo "MIME-Version: 1.0"; echo "Content-Type: text/plain; charset=UTF-8"
	  echo "Content-Transfer-Encoding: 8bit"; echo
	  echo "Line 5 reads better spelled out."; echo
	  printf '%s\n' "$_tr"; cat "$TRASH/below"; } > "$TRASH/mail"
	git -C "$TRASH/direct" reset -q --hard base
	git -C "$TRASH/lore" reset -q --hard base
	git -C "$TRASH/direct" am -q "$TRASH/mail" || { ok 1 "$_desc (git am)"; return; }
	to_mbox "$TRASH/t.mbox" "$TRASH/mail" "$TRASH/reply"
	"$LORE_AM" -q "$@" -m "$TRASH/t.mbox" patch@example.com > "$TRASH/out.mbx" &&
		git -C "$TRASH/lore" am -q "$TRASH/out.mbx" ||
		{ ok 1 "$_desc (lore-am or git am of its output)"; return; }
	{ git -C "$TRASH/direct" cat-file commit HEAD | sed '1,/^$/d' |
		grep -vxF "${MOVED:-no line is moved}"
	  echo "Reviewed-by: Rev Iewer <rev@example.com>"
	  case " $* " in *" -s "*)
		echo "${MOVED:-Signed-off-by: Test Maintainer <maintainer@example.org>}"
	  esac; } > "$TRASH/want"
	git -C "$TRASH/lore" cat-file commit HEAD | sed '1,/^$/d' > "$TRASH/got"
	same_file "$TRASH/got" "$TRASH/want" "$_desc"
}

oracle "quoted display names (the issue's two)" \
'Reported-by: "Doe, Jane" <jane@example.com>
Signed-off-by: "Yann E. MORIN" <yann.morin@example.org>'
oracle "a quote inside a name, and an escaped one" \
'Suggested-by: Jane "JD" Doe <jd@example.com>
Signed-off-by: "Pat \"P\" Contributor" <pat@example.com>'
oracle "addr (Name) and a bare <addr>" \
'Cc: <bare@example.com>
Signed-off-by: pat@example.com (Pat Contributor)'
oracle "spaces inside a trailer" \
'Acked-by:  Ann   Acker  <ann@example.com>
Signed-off-by: Pat Contributor <pat@example.com>'
oracle "an indented trailer first" \
'  Tested-by: Tess Ter <tess@example.com>
Signed-off-by: Pat Contributor <pat@example.com>'
oracle "a # note tail and a [note] line" \
'Link: https://example.org/bug/1  # the report
Reviewed-by: Old Reviewer <old@example.com>
[for the parts that are old]
Signed-off-by: Pat Contributor <pat@example.com>'
oracle "an address without its closing > (git's t5100 sample)" \
'Signed-off-by: A U Thor <a.u.thor@example.com'
oracle "a Signed-off-by whose address a mailer wrapped" \
'Signed-off-by: Patricia Quite-Long-Family-Name Contributor-Of-Patches
<pat@example.com>'
oracle "with -s, a patch that has no Signed-off-by of the maintainer" \
'Signed-off-by: "Yann E. MORIN" <yann.morin@example.org>' -s
MOVED='Signed-off-by: "Test Maintainer" <maintainer@example.org>' \
oracle "with -s, the maintainer's own quoted Signed-off-by moves last, as sent" \
'Signed-off-by: "Test Maintainer" <maintainer@example.org>
Signed-off-by: "Yann E. MORIN" <yann.morin@example.org>' -s

# the trailer lore-am adds from a reply is formatted
sed -i 's/^Reviewed-by: .*/Reviewed-by:  rev@example.com   (Rev Iewer)/' "$TRASH/reply"
oracle_added() {
	"$LORE_AM" -q -m "$TRASH/t.mbox" patch@example.com > "$TRASH/out.mbx"
	grep -c "$1" "$TRASH/out.mbx"
}
to_mbox "$TRASH/t.mbox" "$TRASH/mail" "$TRASH/reply"
is "$(oracle_added '^Reviewed-by: Rev Iewer <rev@example.com>$')" 1 \
	"an added trailer is written the way b4 writes it"
is "$(oracle_added '^Signed-off-by: "Yann E. MORIN" <yann.morin@example.org>$')" 1 \
	"beside the patch's own, as sent"

# the -o files say the same: the .mbx is the mbox
"$LORE_AM" -q -m "$TRASH/t.mbox" -o "$TRASH/o" patch@example.com
check "the -o file keeps the quotes too" \
	grep -q '^Signed-off-by: "Yann E. MORIN" <yann.morin@example.org>$' "$TRASH"/o/*.mbx
# b4's fixtures (t0100) are untouched by this: none has a quoted trailer
check "the mbox has no other change" cmp -s "$TRASH/out.mbx" "$TRASH"/o/*.mbx
done_testing
