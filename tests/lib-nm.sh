# lib-nm.sh - a real notmuch database for lore-am's tests (source after
# lib.sh).
#
#   nm_have                 true when notmuch is installed and lore-am was
#                           built with notmuch support (tests skip otherwise)
#   nm_init DIR             a mail root DIR (a maildir) and a notmuch config
#                           for it; exports NOTMUCH_CONFIG and NM_MAIL
#   nm_add MBOX [FOLDER]    deliver every message of MBOX (mboxrd) into the
#                           maildir FOLDER under the mail root (default:
#                           the root itself), one file each in cur/, with
#                           the From_ line dropped as an MDA would
#   nm_new                  run `notmuch new` (quietly; fails loudly)
#   nm_maildir DIR MBOX     nm_init DIR, nm_add MBOX, nm_new
#   nm_file ID              the first file notmuch lists for message ID
#   gen_series DIR [ARGS]   bench/gen-thread.sh into DIR/thread.mbox with
#                           its git repository in DIR/repo; prints the
#                           cover letter's Message-ID
#   gen_thread [ARGS]       gen_series $TRASH/g ARGS (default: --preset
#                           small) and names for what it made: G, mbox
#                           (the mbox), cover, ids (every Message-ID, in
#                           order) and p1..pN (the patches' Message-IDs)
#   mbox_without MBOX OUT ID...  copy MBOX without the messages ID...
#   mbox_pick MBOX ID       print message ID of MBOX (with its From_ line)
#   mbox_ids MBOX           every Message-ID of MBOX, in order

nm_have() {
	command -v notmuch >/dev/null 2>&1 || return 1
	"$LORE_AM" -N nothing@example.invalid </dev/null 2>&1 |
		grep -q 'not compiled in' && return 1
	return 0
}

nm_init() {
	NM_MAIL=$1
	mkdir -p "$NM_MAIL/cur" "$NM_MAIL/new" "$NM_MAIL/tmp" || return 1
	NOTMUCH_CONFIG=$1.notmuch-config
	cat >"$NOTMUCH_CONFIG" <<EOF
[database]
path=$NM_MAIL
[user]
name=Test Maintainer
primary_email=maintainer@example.org
[new]
tags=new;
[maildir]
synchronize_flags=false
EOF
	export NOTMUCH_CONFIG NM_MAIL
	unset NOTMUCH_DATABASE NOTMUCH_PROFILE
}

nm_add() {
	local dir=$NM_MAIL${2:+/$2} split f
	mkdir -p "$dir/cur" "$dir/new" "$dir/tmp" || return 1
	split=$(mktemp -d "$TRASH/split.XXXXXX") || return 1
	git mailsplit --mboxrd -o"$split" "$1" >/dev/null || return 1
	for f in "$split"/*; do
		sed '1{/^From /d;}' "$f" >"$dir/cur/$(basename "$1" .mbox)-${f##*/}:2," ||
			return 1
	done
	rm -rf "$split"
}

nm_new() {
	notmuch new --quiet >"$TRASH/.nm-new.out" 2>&1 && return 0
	sed 's/^/# notmuch new: /' "$TRASH/.nm-new.out"
	return 1
}

nm_maildir() {
	nm_init "$1" && nm_add "$2" && nm_new
}

nm_file() {
	notmuch search --output=files "id:$1" | head -n 1
}

gen_series() {
	local dir=$1
	shift
	mkdir -p "$dir" &&
	"$SRC_DIR/bench/gen-thread.sh" "$@" -k "$dir/repo" -o "$dir/thread.mbox"
}

gen_thread() {
	local n=1 p
	[ $# -gt 0 ] || set -- --preset small
	G=$TRASH/g
	cover=$(gen_series "$G" "$@") || return 1
	mbox=$G/thread.mbox
	ids=$(mbox_ids "$mbox")
	while p=$(printf '%s\n' "$ids" | grep "\.$n\.v1-PATCH@"); do
		printf -v "p$n" '%s' "$p"
		n=$((n + 1))
	done
}

# mbox_filter KEEP MBOX ID...: the messages listed (KEEP=1) or the others
_mbox_filter() {
	perl -e '
		my $keep = shift @ARGV;
		my %list = map { ($_ => 1) } @ARGV[1 .. $#ARGV];
		open(my $fh, "<", $ARGV[0]) or die "$ARGV[0]: $!\n";
		local $/;
		my $all = <$fh>;
		for my $m (split /^(?=From \S+ \w\w\w \w\w\w [ \d]\d \d\d:)/m, $all) {
			my ($id) = $m =~ /^Message-ID:\s*<([^>]+)>/mi;
			my $in = defined $id && $list{$id} ? 1 : 0;
			print $m if $in == $keep;
		}' "$@"
}

mbox_without() {
	local in=$1 out=$2
	shift 2
	_mbox_filter 0 "$in" "$@" >"$out"
}

mbox_pick() {
	_mbox_filter 1 "$@"
}

mbox_ids() {
	sed -n 's/^Message-ID: *<\(.*\)>.*/\1/Ip' "$1"
}
