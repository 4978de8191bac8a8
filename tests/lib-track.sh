# lib-track.sh - the thread the tests of lore-am.track's file (the one
# `b4 ty` reads) start from. Source after lib.sh and lib-series.sh.

# track_thread GREETING: $TRASH/repo with three patches on topic
# (series_repo), formatted with a cover letter "Add the pieces" whose
# body is GREETING, a blank line and "This adds three pieces.", sent To
# list@example.org and Cc rev@example.com, as $TRASH/thread.mbox. Sets
# id (the first patch's Message-ID), cover_id (the cover letter's) and
# data (b4's data folder, where the tracking files go).
track_thread() {
	series_repo "$TRASH/repo" 3 >/dev/null || return 1
	fmt "$TRASH/repo" "$TRASH/p" --cover-letter --to=list@example.org \
		--cc=rev@example.com || return 1
	cover_letter "Add the pieces" "$1\n\nThis adds three pieces." \
		"$TRASH/p/0000-cover-letter.patch"
	to_mbox "$TRASH/thread.mbox" "$TRASH"/p/*.patch
	id=$(msgid_of "$TRASH/p/0001-part-add-piece-1.patch")
	cover_id=$(msgid_of "$TRASH/p/0000-cover-letter.patch")
	data=$HOME/.local/share/b4
}
