# lib-queue.sh - the queue's tests (t94NN): one series sent three times,
# with reviews arriving in between, as mail files in arrival order. Source
# after lib.sh and lib-series.sh.
#
#   queue_revisions REPO  REPO made (make_repo) with the three revisions
#                         of "widget: three parts" (a.c, b.c, c.c, each
#                         revision changing them): v1 and v2 (in reply to
#                         v1's cover letter) in one thread, v3 a thread of
#                         its own, each with a cover letter; the mails in
#                         $TRASH/arrive/NN-what.eml in arrival order:
#                           01-04 v1 (cover, 1/3..3/3)
#                           05    Reviewed-by on v1 1/3
#                           06-09 v2 (cover, 1/3..3/3)
#                           10    Acked-by on v2's cover (all patches)
#                           11-14 v3 (cover, 1/3..3/3), a new thread
#                           15    Tested-by on v3 2/3
#                           16    Reviewed-by on v3's cover
#                           17    a late reply to v1 2/3
#                         sets V1C, V2C, V3C (cover letters) and V3P2.

_queue_rev() {
	_repo=$1 _v=$2 _out=$3
	shift 3
	(cd "$_repo" && git checkout -q -B "v$_v" base &&
	 for f in a b c; do
		printf 'int %s = %s;\n' "$f" "$_v" >"$f.c" && git add "$f.c" &&
		git commit -q -m "$f: add $f" -m "The $f part." \
			-m "Signed-off-by: Test Maintainer <maintainer@example.org>" ||
			return 1
	 done &&
	 git format-patch -q --thread=shallow --cover-letter --base=base \
		-v"$_v" "$@" -o "$_out" base.."v$_v") || return 1
	cover_letter "widget: three parts" "The widget, in three parts." \
		"$_out"/*0000-cover-letter.patch
}

queue_revisions() {
	make_repo "$1" || return 1
	A=$TRASH/arrive
	mkdir -p "$A"
	_queue_rev "$1" 1 "$TRASH/q1" || return 1
	V1C=$(msgid_of "$TRASH"/q1/*0000-cover-letter.patch)
	sleep 1
	_queue_rev "$1" 2 "$TRASH/q2" --in-reply-to="$V1C" || return 1
	V2C=$(msgid_of "$TRASH"/q2/*0000-cover-letter.patch)
	sleep 1
	_queue_rev "$1" 3 "$TRASH/q3" || return 1
	V3C=$(msgid_of "$TRASH"/q3/*0000-cover-letter.patch)
	V3P2=$(msgid_of "$TRASH"/q3/*0002-*.patch)
	_n=0
	for _v in 1 2 3; do
		for _f in "$TRASH/q$_v"/*.patch; do
			_n=$((_n + 1))
			[ "$_n" -eq 5 ] && _n=$((_n + 1))
			[ "$_n" -eq 10 ] && _n=$((_n + 1))
			cp "$_f" "$A/$(printf %02d "$_n")-v$_v-${_f##*/}"
		done
	done
	reply "$A/05-review.eml" "$TRASH"/q1/v1-0001-*.patch \
		"Rev One <rev1@example.net>" \
		"Looks good.

Reviewed-by: Rev One <rev1@example.net>" &&
	reply "$A/10-ack.eml" "$TRASH"/q2/v2-0000-cover-letter.patch \
		"Ack Er <acker@example.net>" \
		"For the series:

Acked-by: Ack Er <acker@example.net>" &&
	reply "$A/15-tested.eml" "$TRASH"/q3/v3-0002-*.patch \
		"Tess Ter <tess@example.net>" \
		"Works here.

Tested-by: Tess Ter <tess@example.net>" &&
	reply "$A/16-review.eml" "$TRASH"/q3/v3-0000-cover-letter.patch \
		"Rev One <rev1@example.net>" \
		"All good.

Reviewed-by: Rev One <rev1@example.net>" &&
	reply "$A/17-late.eml" "$TRASH"/q1/v1-0002-*.patch \
		"Late Comer <late@example.net>" "A late thought on v1."
}
