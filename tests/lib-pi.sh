# lib-pi.sh - stand up a real public-inbox HTTP server for lore-am tests.
# shellcheck shell=bash disable=SC2016,SC2094
#
# Usage (from a test script living next to this file):
#
#   . "$(dirname "$0")/lib.sh"
#   . "$TEST_DIR/lib-pi.sh"
#   pi_have_httpd || skip_all "public-inbox-httpd not installed"
#   pi_init "$TRASH/pi"
#   at_exit pi_stop
#   pi_add_inbox linux-foo 2 "$TRASH/foo.mbox"
#   pi_add_all                      # optional: /all/ extindex
#   pi_start || exit 1              # sets PI_URL, PI_PID
#   curl -q -s "$PI_URL/linux-foo/$(pi_mid_escape "$mid")/t.mbox.gz"
#   pi_requests                     # -> number of requests served so far
#
# Functions (all return non-zero and print "lib-pi: ..." on stderr on error;
# none of them calls exit, so they are safe under "set -e" with "||"):
#
#   pi_have_httpd
#       True if public-inbox-httpd is installed (tests skip otherwise).
#       Everything else needed (public-inbox-*, git, perl, Plack, Xapian)
#       comes with the Debian public-inbox package; curl must be present.
#
#   pi_init WORKDIR
#       Create WORKDIR (if needed) and make it the home of everything below.
#       Exports PI_WORKDIR (absolute), PI_CONFIG=$WORKDIR/pi-config,
#       PI_DIR=$WORKDIR/pi-dir (replaces ~/.public-inbox),
#       PI_EMERGENCY=$WORKDIR/pi-dir/emergency (public-inbox-mda otherwise
#       uses ~/.public-inbox/emergency), PI_ACCESS_LOG=$WORKDIR/access.log
#       and adds 127.0.0.1/localhost to no_proxy/NO_PROXY so that neither
#       curl nor libcurl ever goes through a proxy for the test server.
#       Sets publicinboxmda.spamcheck=none in PI_CONFIG.
#       All public-inbox commands are additionally run with
#       HOME=$WORKDIR/home, XDG_{CONFIG,DATA,CACHE}_HOME unset and
#       GIT_CONFIG_NOSYSTEM=1, so nothing from the user's ~/.public-inbox,
#       ~/.gitconfig or /etc/gitconfig is read.  The caller's own HOME is
#       NOT changed.
#
#   pi_add_inbox NAME VERSION MBOX
#       Create inbox NAME (VERSION 1 or 2) at $PI_WORKDIR/inboxes/NAME with
#       address NAME@example.org and url http://127.0.0.1/NAME (a
#       placeholder: pi_start/pi_reload rewrite it to $PI_URL/NAME; it only
#       matters for root /MSGID/ redirects), split MBOX with
#       "git mailsplit -b --keep-cr" (a file not starting with "From " is
#       one message; set PI_MBOXRD=1 to unescape mboxrd ">From " lines),
#       deliver all the messages in one Perl process (lib-pi-import.pl,
#       next to this file), which takes the path
#         ORIGINAL_RECIPIENT=NAME@example.org public-inbox-mda --no-precheck
#       takes for each message (public-inbox's own modules: Eml, the
#       inbox's filter, MDA's List-Id, the inbox's importer) without
#       starting public-inbox once per message; a v1 inbox is then indexed
#       with public-inbox-index (a v2 importer indexes as it adds, as it
#       does under -mda).
#       The inbox uses PublicInbox::Filter::Mirror so delivery never rejects
#       a message (-mda's default filter refuses e.g. HTML parts).  Message
#       bodies are stored byte for byte (CRs kept).  Header changes made by
#       public-inbox itself (as -mda makes them): the mbox "From " line is
#       dropped, "List-Id: <NAME.example.org>" is added if there is no
#       List-Id, and Status, X-Status, Lines, Bytes, Content-Length,
#       Delivered-To, X-Original-To, Approved and similar headers are
#       removed.
#       Message-IDs containing "/", "+", "%" work (files are named by
#       mailsplit's counter, never by Message-ID).
#       Index level: $PI_INDEXLEVEL (default "full" = Xapian search works).
#       If the server is already running, call pi_reload afterwards.
#
#   pi_add_all
#       Configure extindex.all.topdir=$PI_WORKDIR/all and
#       extindex.all.url=http://127.0.0.1/all and run
#       "public-inbox-extindex --all" so $PI_URL/all/MSGID/t.mbox.gz works.
#       Re-run after adding inboxes (then pi_reload if the server runs).
#
#   pi_start
#       Start "public-inbox-httpd -W0 -l http://127.0.0.1:PORT" in the
#       background on a free port.  The port is chosen race-free: a small
#       perl wrapper binds 127.0.0.1:0 itself and hands the listening socket
#       to httpd via systemd-style socket activation (LISTEN_FDS=1,
#       LISTEN_PID) before exec'ing it, so PI_PID is the httpd process.
#       Exports PI_PORT, PI_URL=http://127.0.0.1:PORT and PI_PID, waits up to
#       $PI_START_TIMEOUT seconds (default 10) until GET $PI_URL/ answers,
#       then truncates the access log (the readiness probe is not counted).
#       httpd stdout/stderr go to $PI_WORKDIR/httpd.out / httpd.err (-1/-2).
#
#   pi_stop
#       Kill exactly $PI_PID (TERM, then KILL after 5 s) and reap it.
#       Idempotent and silent, meant for EXIT traps.  Unsets PI_PID.
#
#   pi_reload
#       Rewrite the inbox urls as pi_start does and SIGHUP the server so
#       it re-reads PI_CONFIG (new inboxes/extindex).  The reload is
#       asynchronous: poll (e.g. up to 5 s) until the new inbox answers.
#
#   pi_requests
#       Print the number of HTTP requests the server has answered since
#       pi_start (one line per request in $PI_ACCESS_LOG).
#
#   pi_serve NAME MBOX
#       The usual archive of a test: pi_init "$TRASH/pi", one V2 inbox NAME
#       holding MBOX (PI_MBOXRD as for pi_add_inbox), pi_start, pi_stop at
#       exit, and git config lore-am.midmask "$PI_URL/NAME/%s" so that
#       lore-am asks it.
#
#   pi_mid_escape MSGID
#       Print MSGID (without <>) escaped the way public-inbox escapes it in
#       URLs (PublicInbox::MID::mid_escape): everything except
#       A-Za-z0-9 - . _ ~ ! $ & ' ( ) * + , ; = : @ becomes %XX, so "/" is
#       "%2F", "%" is "%25" and "+" stays "+".
#
# Request logging: public-inbox-httpd 1.9.0 does NOT log requests at all.
# Without a PSGI file its default stack is only ReverseProxy (if installed)
# + Head around PublicInbox::WWW; --stdout/--stderr (-1/-2) merely redirect
# stdout/stderr, which get startup/warning messages, never request lines.
# pi_start therefore runs httpd with a generated PSGI file
# ($PI_WORKDIR/pi-httpd.psgi) that is the same default stack plus
# Plack::Middleware::AccessLog, whose logger appends one line per request
# ('%h %t "%r" %>s %b', i.e. client, time, request line, status, size) to
# $PI_ACCESS_LOG.  A line is written as soon as the response status and
# headers are known, i.e. before the client has the body, so pi_requests
# is exact once curl has returned.  Not counted: requests httpd rejects
# before they reach the PSGI app (malformed HTTP -> 400 from the server
# core) and requests whose app code dies.
#
# Observed behaviour of public-inbox 1.9.0 (the ones marked [t] are
# asserted by t9000-pi-harness.t; the C network code relies on these):
#
#   * HEAD (or GET) $PI_URL/MSGID/ at the server root, Message-ID known:
#     always "302 Found" (never 301, never 300 even if several inboxes
#     have it), Content-Type text/plain, body "Redirecting to URL\n".
#     - [t] when the /all/ extindex exists (pi_add_all, like lore):
#       "Location: $PI_URL/all/MSGID/", absolute, built from the request's
#       Host header (so it includes the port), MSGID escaped as in
#       pi_mid_escape (e.g. "/" -> %2F, "%" -> %25, "+" kept).
#     - without extindex: "Location: <publicinbox.NAME.url>/MSGID/" of the
#       first inbox (config-file order) holding it; built from the
#       configured url, NOT the request host.  pi_start/pi_reload rewrite
#       every publicinbox.*.url (and extindex.all.url) to $PI_URL/NAME so
#       this points back at the test server.
#     The same lookup also accepts /MSGID without trailing slash.
#     [t] Unknown Message-ID at the root: 404 (text/plain, "Not Found").
#   * [t] GET $PI_URL/all/MSGID/t.mbox.gz with an unknown MSGID: 404,
#     Content-Type text/plain, empty body (chunked).  Same for
#     $PI_URL/NAME/MSGID/t.mbox.gz.  (Without an extindex, /all/... is
#     404 "Not Found" because there is no inbox called "all".)
#   * [t] t.mbox.gz responses: "200 OK" with exactly
#       "Content-Type: application/gzip"
#     plus "Content-Disposition: inline; filename=<subject>.mbox.gz",
#     no Content-Encoding, no Content-Length (Transfer-Encoding: chunked).
#     Body = gzip of an mboxrd of the whole thread (every message starts
#     with "From mboxrd@z Thu Jan  1 00:00:00 1970", ">From" lines in
#     bodies get one more ">"; CRLF line endings stored are served as is).
#     HEAD gives the same status and headers.
#   * [t] Message-IDs with "/" work %2F-escaped (%2f too) in URLs; this
#     is what public-inbox itself generates.  A raw "/" is also accepted
#     by a legacy route (WWW.pm: $INBOX_RE/(\S+/\S+)/$END_RE), but do not
#     rely on it.  "+" works raw or as %2B; "%" must be sent as %25.
#
# Requires: bash, git, perl, curl, public-inbox (>= 1.9: -init -index
# -extindex -httpd and its Perl modules).  Nothing here talks to anything
# but 127.0.0.1.

# --------------------------------------------------------------------------

_PI_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

_pi_err() {
	printf 'lib-pi: %s\n' "$*" >&2
	return 1
}

# Sets _PI_ENV to an "env ..." prefix that isolates a public-inbox command
# from the user's home and git config.
_pi_mkenv() {
	_PI_ENV=(env -u XDG_CONFIG_HOME -u XDG_DATA_HOME -u XDG_CACHE_HOME
		HOME="$PI_WORKDIR/home" GIT_CONFIG_NOSYSTEM=1
		PI_CONFIG="$PI_CONFIG" PI_DIR="$PI_DIR"
		PI_EMERGENCY="$PI_EMERGENCY" PI_ACCESS_LOG="$PI_ACCESS_LOG")
}

# Run a public-inbox command isolated from the user's home and git config.
_pi_env() {
	_pi_mkenv
	"${_PI_ENV[@]}" "$@"
}

# _pi_env + output to $PI_WORKDIR/pi-cmd.log, shown on failure
_pi_run() {
	local rc
	printf '+ %s\n' "$*" >>"$PI_WORKDIR/pi-cmd.log"
	_pi_env "$@" >>"$PI_WORKDIR/pi-cmd.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		_pi_err "command failed (exit $rc): $*"
		tail -n 20 "$PI_WORKDIR/pi-cmd.log" >&2
	fi
	return $rc
}

_pi_need_init() {
	if [ -z "${PI_WORKDIR:-}" ] || [ -z "${PI_CONFIG:-}" ]; then
		_pi_err "pi_init has not been called"
		return 1
	fi
}

pi_have_httpd() {
	command -v public-inbox-httpd >/dev/null 2>&1
}

pi_init() {
	local dir="${1:?usage: pi_init WORKDIR}"
	mkdir -p "$dir" || { _pi_err "cannot create $dir"; return 1; }
	PI_WORKDIR=$(cd "$dir" && pwd -P) || return 1
	export PI_WORKDIR
	export PI_CONFIG="$PI_WORKDIR/pi-config"
	export PI_DIR="$PI_WORKDIR/pi-dir"
	export PI_EMERGENCY="$PI_DIR/emergency"
	export PI_ACCESS_LOG="$PI_WORKDIR/access.log"
	mkdir -p "$PI_WORKDIR/home" "$PI_WORKDIR/inboxes" "$PI_EMERGENCY" ||
		return 1
	: >>"$PI_CONFIG" || return 1
	git config -f "$PI_CONFIG" publicinboxmda.spamcheck none || return 1
	# never proxy loopback (curl in tests, libcurl in lore-am)
	export no_proxy="127.0.0.1,localhost${no_proxy:+,$no_proxy}"
	export NO_PROXY="127.0.0.1,localhost${NO_PROXY:+,$NO_PROXY}"
	PI_PID=
	PI_URL=
	PI_PORT=
}

pi_add_inbox() {
	local name="$1" version="$2" mbox="$3"
	local dir tmp rc
	_pi_need_init || return 1
	if [ $# -ne 3 ]; then
		_pi_err "usage: pi_add_inbox NAME VERSION MBOX"
		return 1
	fi
	case "$name" in
	''|*[!A-Za-z0-9._-]*|.*)
		_pi_err "bad inbox name '$name'"; return 1 ;;
	esac
	case "$version" in
	1|2) ;;
	*) _pi_err "inbox version must be 1 or 2, not '$version'"; return 1 ;;
	esac
	[ -f "$mbox" ] || { _pi_err "no such mbox: $mbox"; return 1; }
	dir="$PI_WORKDIR/inboxes/$name"
	[ -e "$dir" ] && { _pi_err "inbox $name already exists"; return 1; }

	set -- -V"$version" -L "${PI_INDEXLEVEL:-full}" \
		-c filter=PublicInbox::Filter::Mirror
	[ "$version" = 2 ] && set -- "$@" -j 1
	_pi_run public-inbox-init "$@" "$name" "$dir" \
		"http://127.0.0.1/$name" "$name@example.org" ||
		{ _pi_err "public-inbox-init $name failed"; return 1; }

	tmp=$(mktemp -d "$PI_WORKDIR/split.XXXXXX") || return 1
	set -- -b --keep-cr
	[ -n "${PI_MBOXRD:-}" ] && set -- "$@" --mboxrd
	if ! git mailsplit "$@" -o"$tmp" "$mbox" >/dev/null; then
		rm -rf "$tmp"
		_pi_err "git mailsplit $mbox failed"
		return 1
	fi
	# every message in one process, in mailsplit's order
	set -- "$tmp"/*
	[ -f "$1" ] || set --
	_pi_run perl "$_PI_LIB_DIR/lib-pi-import.pl" "$name" "$@"
	rc=$?
	if [ $rc -ne 0 ]; then
		rm -rf "$tmp"
		_pi_err "importing $mbox into $name failed (exit $rc)"
		return 1
	fi
	rm -rf "$tmp"
	# a v2 importer indexes as it adds (as for -mda); v1 needs -index
	[ "$version" = 2 ] && return 0
	_pi_run public-inbox-index --no-fsync "$dir" ||
		{ _pi_err "public-inbox-index $name failed"; return 1; }
	return 0
}

pi_add_all() {
	_pi_need_init || return 1
	git config -f "$PI_CONFIG" extindex.all.topdir "$PI_WORKDIR/all" &&
	git config -f "$PI_CONFIG" extindex.all.url "http://127.0.0.1/all" ||
		return 1
	_pi_run public-inbox-extindex --no-fsync --all "$PI_WORKDIR/all" ||
		{ _pi_err "public-inbox-extindex --all failed"; return 1; }
}

# PSGI app = httpd's default stack + AccessLog to $PI_ACCESS_LOG
_pi_write_psgi() {
	cat >"$PI_WORKDIR/pi-httpd.psgi" <<'EOF'
# generated by lib-pi.sh
use v5.12;
use Plack::Builder;
use PublicInbox::WWW;
use Fcntl qw(O_WRONLY O_APPEND O_CREAT);
my $log = $ENV{PI_ACCESS_LOG} // die "PI_ACCESS_LOG not set\n";
my $www = PublicInbox::WWW->new;
$www->preload;
builder {
	enable 'AccessLog', format => '%h %t "%r" %>s %b',
		logger => sub {
			sysopen(my $fh, $log, O_WRONLY|O_APPEND|O_CREAT) or
				die "open $log: $!";
			defined(syswrite($fh, $_[0])) or die "write $log: $!";
			close($fh) or die "close $log: $!";
		};
	enable 'Head';
	sub { $www->call(@_) };
};
EOF
}

pi_start() {
	local portfile deadline code i timeout="${PI_START_TIMEOUT:-10}"
	_pi_need_init || return 1
	if [ -n "${PI_PID:-}" ]; then
		_pi_err "server already running (pid $PI_PID)"
		return 1
	fi
	_pi_write_psgi || return 1
	portfile="$PI_WORKDIR/httpd.port"
	rm -f "$portfile" "$portfile.tmp"
	: >"$PI_ACCESS_LOG"

	# Bind 127.0.0.1:0 here, pass the socket as fd 3 (socket activation),
	# then exec httpd in this very process: no port race, PID == httpd.
	# NB: this must be a plain command (env -> perl -> exec httpd), not a
	# shell function, or "$!" would be a subshell and not the server.
	_pi_mkenv
	"${_PI_ENV[@]}" perl -e '
		use strict; use IO::Socket::INET; use POSIX qw(dup2);
		my ($portfile, $psgi, $out, $err) = @ARGV;
		my $s = IO::Socket::INET->new(LocalAddr => "127.0.0.1",
			LocalPort => 0, Proto => "tcp", Listen => 1024,
			ReuseAddr => 1) or die "lib-pi: bind 127.0.0.1:0: $!\n";
		$s->blocking(0);
		my $port = $s->sockport;
		if (fileno($s) != 3) {
			dup2(fileno($s), 3) // die "lib-pi: dup2: $!\n";
		} else { # keep it open across exec
			use Fcntl qw(F_GETFD F_SETFD FD_CLOEXEC);
			my $fl = fcntl($s, F_GETFD, 0);
			fcntl($s, F_SETFD, $fl & ~FD_CLOEXEC);
		}
		# point the configured URLs (used for redirects) at us
		my $cfg = $ENV{PI_CONFIG};
		open(my $p, "-|", qw(git config -f), $cfg, qw(--name-only
			--get-regexp), q{^(publicinbox\..+|extindex\.all)\.url$})
			or die "lib-pi: git config: $!\n";
		chomp(my @keys = <$p>);
		close $p;
		for my $k (@keys) {
			my ($n) = ($k =~ /\Apublicinbox\.(.+)\.url\z/);
			$n //= "all";
			system(qw(git config -f), $cfg, "--replace-all", $k,
				"http://127.0.0.1:$port/$n") == 0 or
				die "lib-pi: git config $k failed\n";
		}
		$ENV{LISTEN_PID} = $$;
		$ENV{LISTEN_FDS} = 1;
		delete $ENV{LISTEN_FDNAMES};
		open(my $fh, ">", "$portfile.tmp") or die "lib-pi: $portfile: $!\n";
		print $fh "$port\n";
		close($fh) or die;
		rename("$portfile.tmp", $portfile) or die "lib-pi: rename: $!\n";
		exec("public-inbox-httpd", "-W0", "-l", "http://127.0.0.1:$port",
			"-1", $out, "-2", $err, $psgi) or
			die "lib-pi: exec public-inbox-httpd: $!\n";
	' "$portfile" "$PI_WORKDIR/pi-httpd.psgi" \
		"$PI_WORKDIR/httpd.out" "$PI_WORKDIR/httpd.err" \
		</dev/null >>"$PI_WORKDIR/httpd.out" 2>>"$PI_WORKDIR/httpd.err" &
	PI_PID=$!
	export PI_PID

	# wait for the port file, then for an HTTP answer (10 tries/second)
	i=0
	deadline=$((timeout * 10))
	while [ ! -s "$portfile" ]; do
		if ! kill -0 "$PI_PID" 2>/dev/null || [ $i -ge $deadline ]; then
			_pi_start_failed "no port chosen"
			return 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
	read -r PI_PORT <"$portfile"
	export PI_PORT
	export PI_URL="http://127.0.0.1:$PI_PORT"
	while :; do
		code=$(curl -q -s -o /dev/null --noproxy '*' -m 2 \
			-w '%{http_code}' "$PI_URL/" 2>/dev/null)
		case "$code" in
		''|000) ;;
		*) break ;;
		esac
		if ! _pi_alive "$PI_PID" || [ $i -ge $deadline ]; then
			_pi_start_failed "no HTTP answer from $PI_URL/"
			return 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
	# do not count the readiness probe(s)
	: >"$PI_ACCESS_LOG"
	return 0
}

_pi_start_failed() {
	_pi_err "public-inbox-httpd failed to start within" \
		"${PI_START_TIMEOUT:-10}s ($1); stderr follows:"
	tail -n 20 "$PI_WORKDIR/httpd.err" >&2 2>/dev/null
	pi_stop
}

# true if PID exists and is not a zombie
_pi_alive() {
	local st
	kill -0 "$1" 2>/dev/null || return 1
	if [ -r "/proc/$1/stat" ]; then
		st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)
	else
		st=$(ps -o stat= -p "$1" 2>/dev/null | cut -c1)
	fi
	[ "$st" != Z ]
}

pi_stop() {
	local pid="${PI_PID:-}" i=0
	[ -n "$pid" ] || return 0
	PI_PID=
	kill -TERM "$pid" 2>/dev/null
	while _pi_alive "$pid" && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	_pi_alive "$pid" && kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return 0
}

pi_reload() {
	local k n
	[ -n "${PI_PID:-}" ] || { _pi_err "server not running"; return 1; }
	# same URL rewrite pi_start does, for inboxes added since
	for k in $(git config -f "$PI_CONFIG" --name-only --get-regexp \
			'^(publicinbox\..+|extindex\.all)\.url$'); do
		case "$k" in
		publicinbox.*.url) n=${k#publicinbox.}; n=${n%.url} ;;
		*) n=all ;;
		esac
		git config -f "$PI_CONFIG" --replace-all "$k" \
			"http://127.0.0.1:$PI_PORT/$n" || return 1
	done
	kill -HUP "$PI_PID"
}

pi_requests() {
	_pi_need_init || return 1
	if [ -f "$PI_ACCESS_LOG" ]; then
		wc -l <"$PI_ACCESS_LOG" | tr -d ' \t'
	else
		echo 0
	fi
}

pi_serve() {
	pi_init "$TRASH/pi" || return 1
	at_exit pi_stop
	pi_add_inbox "$1" 2 "$2" || return 1
	pi_start || return 1
	git config --global lore-am.midmask "$PI_URL/$1/%s"
}

pi_mid_escape() {
	local s="$1" out="" c i
	s=${s#<}
	s=${s%>}
	local LC_ALL=C
	for ((i = 0; i < ${#s}; i++)); do
		c=${s:i:1}
		case "$c" in
		[A-Za-z0-9._~!\$\&\'\(\)\*+,\;=:@-]) out+=$c ;;
		*) out+=$(printf '%%%02X' "'$c") ;;
		esac
	done
	printf '%s\n' "$out"
}
