#!/bin/bash
# hooks/procmailrc and hooks/maildrop run by the real procmail and maildrop
# with a test rc file and HOME: the copy recipe keeps an up-to-date
# am-ready mbox per series while every mail is delivered byte for byte;
# the filter recipe adds only the X-Lore-Am header; and when lore-am fails
# (output folder unusable, program missing, program broken) the delivered
# mail is still exactly the mail that came in. Patches whose subjects come
# RFC 2047-encoded (as git send-email writes them) go through lore-am too,
# and the log of a series arriving mail by mail holds no alarm: at most
# one line per mail, each naming its message.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hooks.sh"

installed procmail maildrop
[ -n "$FOUND" ] || skip_all "neither procmail nor maildrop installed"
set -- $FOUND
plan $((13 * $# + $(echo $MISSING | wc -w)))
skip_missing

hooks_series || { echo "Bail out! cannot generate the test threads"; exit 1; }
hooks_path
to_maildir "$TRASH/one.mbox" "$TRASH/in-one"
to_maildir "$TRASH/two.mbox" "$TRASH/in-two"
chat_mail "$TRASH/lunch"
# a lore-am that fails badly: garbage out, exit 1
cat >"$TRASH/bin/broken-lore-am" <<'EOS'
#!/bin/sh
head -c 10 >/dev/null
echo garbage
exit 1
EOS
chmod +x "$TRASH/bin/broken-lore-am"
p2=$(grep -l "^Message-I[dD]: <$ONE_P2>" "$TRASH"/in-one/cur/*)
p3of3=$(grep -l '^Message-I[dD]: <20240101120000.3.v1-OTHER@example.org>' \
	"$TRASH"/in-two/cur/*)
p1of3=$(grep -l '^Message-I[dD]: <20240101120000.1.v1-OTHER@example.org>' \
	"$TRASH"/in-two/cur/*)
# patches 3/5 and 5/5 of series one arrive last, their subjects encoded as
# git send-email does: base64 (B) and quoted-printable (q), folded
p3of5=$(grep -l '^Message-I[dD]: <20240101120000.3.v1-PATCH@example.org>' \
	"$TRASH"/in-one/cur/*)
p5of5=$(grep -l '^Message-I[dD]: <20240101120000.5.v1-PATCH@example.org>' \
	"$TRASH"/in-one/cur/*)
encode_subject() {
	LORE_ENC=$1 perl -MEncode -0777 -i -pe '
		s{^Subject: (.*(?:\n[ \t].*)*)}{
			my $s = $1; $s =~ s/\n//g;
			my $e = encode("MIME-$ENV{LORE_ENC}", $s); $e =~ s/\?Q\?/?q?/g;
			"Subject: $e" }me' "$2"
}
encode_subject B "$p3of5" && encode_subject Q "$p5of5" &&
	grep -q '^Subject: =?UTF-8?q?=5BPATCH_5/5=5D' "$p5of5" &&
	grep -q '^Subject: =?UTF-8?B?' "$p3of5" ||
	{ echo "Bail out! cannot encode the subjects"; exit 1; }
arrival=
for f in "$TRASH"/in-one/cur/*; do
	case $f in "$p3of5" | "$p5of5") ;; *) arrival="$arrival $f" ;; esac
done
arrival="$arrival $p3of5 $p5of5"

# rc FILE MDA FOLDER [VAR=VALUE...]: a test rc file delivering to FOLDER
# (with plain=1: without lore-am)
rc() {
	_f=$1 _m=$2 _dir=$3
	shift 3
	mkdir -p "$_dir/cur" "$_dir/new" "$_dir/tmp"
	if [ "$_m" = procmail ]; then
		{
			echo "SHELL=/bin/sh"
			echo "PATH=$PATH"
			echo "LOGFILE=$TRASH/$_m.log"
			# procmail hands its programs no environment but what
			# the rc file sets: the valgrind wrapper's settings too
			for v in LORE_AM_REAL LORE_TOOL_LOGS; do
				[ -z "${!v:-}" ] || echo "$v=\"${!v}\""
			done
			# the queue's file in the test's own folder, each agent
			# its own: the agent sets HOME from the password file
			echo "XDG_DATA_HOME=$TRASH/$_m-data"
			for v in "$@"; do echo "${v%%=*}=\"${v#*=}\""; done
			[ -n "${plain:-}" ] ||
				echo "INCLUDERC=$SRC_DIR/hooks/procmailrc"
			echo ":0"
			echo "$_dir/"
		} >"$_f"
	else
		{
			echo "PATH=\"$PATH\""
			echo "XDG_DATA_HOME=\"$TRASH/$_m-data\""
			for v in "$@"; do echo "${v%%=*}=\"${v#*=}\""; done
			[ -n "${plain:-}" ] ||
				echo "include \"$SRC_DIR/hooks/maildrop\""
			echo "to \"$_dir\""
		} >"$_f"
	fi
	chmod 600 "$_f"
}

# deliver MDA RC MESSAGE: run the delivery agent on one message
deliver() {
	if [ "$1" = procmail ]; then
		procmail -m "$2" <"$3" 2>>"$TRASH/$1.err"
	else
		maildrop "$2" <"$3" 2>>"$TRASH/$1.err"
	fi
}

# the one new file of maildir $1 since the last call, moved to cur/
newest() {
	set -- "$1"/new/*
	[ $# -eq 1 ] && [ -f "$1" ] || return 1
	mv "$1" "${1%/new/*}/cur/" && printf '%s\n' "${1%/new/*}/cur/${1##*/}"
}

for m in "$@"; do
	# 1. copy mode: series one, mail by mail, as it arrives
	box=$TRASH/$m-lists
	rc "$TRASH/$m.rc" "$m" "$box" "LORE_AM_ARGS=-m $box" \
		"LORE_AM_DIR=$HOME/$m-patches"
	fails=0 same=0 n=0
	for f in $arrival; do
		n=$((n + 1))
		deliver "$m" "$TRASH/$m.rc" "$f" || fails=$((fails + 1))
		got=$(newest "$box") && cmp -s "$got" "$f" && same=$((same + 1))
	done
	is "$fails" 0 "$m, copy: every delivery succeeds"
	is "$same" "$n" "$m, copy: every mail is delivered byte for byte"
	"$LORE_AM" -q -m "$box" -o "$TRASH/$m-fresh" "$ONE_ID"
	check "$m, copy: the am-ready mbox is that of the whole mailbox (encoded subjects last)" \
		cmp "$(only_file "$HOME/$m-patches" '*.mbx')" \
		"$(only_file "$TRASH/$m-fresh" '*.mbx')"
	cat "$TRASH/$m.log" "$TRASH/$m.err" 2>/dev/null | grep '^lore-am' \
		>"$TRASH/$m.lines"
	is "$(grep -vc '^lore-am: <[^>]*@[^>]*>: ' "$TRASH/$m.lines")" 0 \
		"$m, copy: each lore-am line of the log names its message"
	is "$(grep -c 'nothing written (use --allow-incomplete\|: missing ' "$TRASH/$m.lines").$(($(wc -l <"$TRASH/$m.lines") <= n))" \
		"0.1" "$m, copy: a series arriving is no error, at most one line a mail"

	# 2. filter mode: series two, with the header
	box=$TRASH/$m-hdr
	rc "$TRASH/$m-hdr.rc" "$m" "$box" "LORE_AM_ARGS=-m $box" \
		"LORE_AM_DIR=$HOME/$m-hdr" LORE_AM_HEADER=yes
	same=0 n=0
	for f in "$TRASH"/in-two/cur/*; do
		n=$((n + 1))
		deliver "$m" "$TRASH/$m-hdr.rc" "$f"
		got=$(newest "$box") || continue
		sed 1q "$got" | grep -q '^X-Lore-Am: status=' &&
			sed 1d "$got" | cmp -s - "$f" && same=$((same + 1))
		case $f in
		"$p1of3") h1=$(sed 1q "$got") ;;
		"$p3of3") h3=$(sed 1q "$got") ;;
		esac
	done
	is "$same" "$n" "$m, filter: each mail gains only the X-Lore-Am header"
	is "$h1" "X-Lore-Am: status=incomplete; revision=1; patches=1/3; missing=2,3; series=$(basename "$(only_file "$HOME/$m-hdr" '*.mbx')" .mbx); state=new; reviews=0,0,0; attestation=none" \
		"$m, filter: patch 1/3 is marked incomplete, 2 and 3 missing"
	is "$h3" "X-Lore-Am: status=complete; revision=1; patches=3/3; series=$(basename "$(only_file "$HOME/$m-hdr" '*.mbx')" .mbx); state=complete; reviews=0,0,0; attestation=none" \
		"$m, filter: patch 3/3 completes the series"
	deliver "$m" "$TRASH/$m-hdr.rc" "$TRASH/lunch"
	check "$m, filter: a mail that is no patch is left alone" \
		cmp "$(newest "$box")" "$TRASH/lunch"

	# a mail that does not end with a newline: as the agent alone
	# would deliver it
	printf 'Subject: [PATCH] x\nMessage-ID: <nonl@example.org>\n\nno newline' \
		>"$TRASH/nonl"
	plain=1 rc "$TRASH/$m-plain.rc" "$m" "$TRASH/$m-plain"
	deliver "$m" "$TRASH/$m-plain.rc" "$TRASH/nonl"
	deliver "$m" "$TRASH/$m-hdr.rc" "$TRASH/nonl"
	sed 1d "$(newest "$box")" | cmp -s - "$(newest "$TRASH/$m-plain")"
	ok $? "$m, filter: a mail without final newline is delivered as without lore-am"

	# 3. failures: the mail comes through as it was
	: >"$TRASH/a-file"
	# (the whole series one is there: lore-am gets as far as writing)
	rc "$TRASH/$m-f1.rc" "$m" "$TRASH/$m-f1" "LORE_AM_ARGS=-m $TRASH/in-one" \
		"LORE_AM_DIR=$TRASH/a-file"
	deliver "$m" "$TRASH/$m-f1.rc" "$p2"
	rc_=$?
	got=$(newest "$TRASH/$m-f1")
	cmp -s "$got" "$p2"
	is "$rc_ $?" "0 0" "$m, copy: lore-am failing to write: mail delivered as it was"
	rc "$TRASH/$m-f2.rc" "$m" "$TRASH/$m-f2" "LORE_AM_ARGS=-m $TRASH/in-one" \
		"LORE_AM_DIR=$TRASH/a-file" LORE_AM_HEADER=yes
	deliver "$m" "$TRASH/$m-f2.rc" "$p2"
	got=$(newest "$TRASH/$m-f2")
	sed 1q "$got" | grep -q '^X-Lore-Am: status=error; code=74;' &&
		sed 1d "$got" | cmp -s - "$p2"
	ok $? "$m, filter: lore-am failing to write: only an error header added"
	bad=0
	for prog in "$TRASH/no-such-lore-am" "$TRASH/bin/broken-lore-am"; do
		rc "$TRASH/$m-f3.rc" "$m" "$TRASH/$m-f3" "LORE_AM=$prog" \
			"LORE_AM_ARGS=-m $box" "LORE_AM_DIR=$HOME/x" \
			LORE_AM_HEADER=yes
		deliver "$m" "$TRASH/$m-f3.rc" "$p2" || bad=1
		got=$(newest "$TRASH/$m-f3") && cmp -s "$got" "$p2" || bad=1
	done
	ok $bad "$m, filter: lore-am missing or broken: mail delivered as it was"
done
done_testing
