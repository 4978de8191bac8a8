#!/usr/bin/env bash
# gen-thread.sh - deterministic generator of realistic patch-review threads.
#
# Builds a throwaway git repository, commits PATCHES changes per revision on
# top of a generated base, runs real `git format-patch` for every revision and
# then adds REPLIES review replies (quotes, trailers, nested sub-threads,
# quoted-printable / base64 / multipart bodies).  Everything is written to one
# mboxrd file ordered by date.  Same arguments + same seed => same bytes.
#
# Usage:
#   gen-thread.sh [-p PATCHES] [-r REVISIONS] [-R REPLIES] [-s SEED] [-k DIR | -b REPO] -o OUT.mbox
#   gen-thread.sh --preset small|medium|large [-s SEED] [-k DIR | -b REPO] -o OUT.mbox
#
# -b REPO builds on an existing repository (bare or not, left checked out
# as it was): the base commit goes on top of its branch main.
#
# Prints the Message-ID (without angle brackets) of the cover letter of the
# latest revision on stdout.  See bench/README.md.
set -euo pipefail

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
	exit "${1:-2}"
}

die() { echo "gen-thread.sh: $*" >&2; exit 2; }

patches=5 revisions=1 replies=20 seed=1 out='' keep='' onto=''

while [ $# -gt 0 ]; do
	case $1 in
	-p) patches=${2:?}; shift 2 ;;
	-r) revisions=${2:?}; shift 2 ;;
	-R) replies=${2:?}; shift 2 ;;
	-s) seed=${2:?}; shift 2 ;;
	-o) out=${2:?}; shift 2 ;;
	-k) keep=${2:?}; shift 2 ;;
	-b) onto=${2:?}; shift 2 ;;
	--preset)
		case ${2:-} in
		small)  patches=5   revisions=1 replies=20 ;;
		medium) patches=30  revisions=2 replies=300 ;;
		large)  patches=100 revisions=3 replies=3000 ;;
		*) die "unknown preset '${2:-}' (small, medium, large)" ;;
		esac
		shift 2 ;;
	--preset=*) set -- --preset "${1#--preset=}" "${@:2}" ;;
	-h|--help) usage 0 ;;
	*) echo "gen-thread.sh: unknown argument '$1'" >&2; usage ;;
	esac
done

[ -n "$out" ] || die "-o OUT.mbox is required"
for v in patches revisions replies seed; do
	case ${!v} in ''|*[!0-9]*) die "$v must be a non-negative integer" ;; esac
done
[ "$patches" -ge 1 ] || die "need at least one patch"
[ "$revisions" -ge 1 ] || die "need at least one revision"
[ "$revisions" -le 50 ] || die "at most 50 revisions"

command -v git >/dev/null || die "git not found"
command -v perl >/dev/null || die "perl not found"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gen-thread.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Isolate git from user/system configuration and pin identities and dates.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME="Dana Patchwell" GIT_AUTHOR_EMAIL="dana.patchwell@example.org"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
export GIT_AUTHOR_DATE="1703505600 +0000" GIT_COMMITTER_DATE="1703505600 +0000"
export TZ=UTC LC_ALL=C

[ -z "$keep" ] || [ -z "$onto" ] || die "-k and -b do not go together"
if [ -n "$onto" ]; then
	git -C "$onto" rev-parse -q --verify refs/heads/main >/dev/null ||
		die "-b $onto: not a git repository with a branch main"
	repo=$(cd "$onto" && pwd)
elif [ -n "$keep" ]; then
	if [ -e "$keep" ] && [ -n "$(ls -A "$keep" 2>/dev/null)" ]; then
		die "-k $keep: exists and is not empty"
	fi
	mkdir -p "$keep"
	repo=$(cd "$keep" && pwd)
else
	repo=$tmp/repo
	mkdir -p "$repo"
fi

# The Perl half: "repo" mode emits a git fast-import stream (base commit plus
# one branch per revision) and a metadata file; "mbox" mode post-processes the
# format-patch output and generates the replies and the final mbox.
read -r -d '' PERL_PROG <<'PERL' || true
use strict;
use warnings;
use MIME::Base64 qw(encode_base64);
use MIME::QuotedPrint qw(encode_qp);

# Perl >= 5.20 has its own drand48, so srand/rand sequences are identical on
# every platform; hashes are never iterated without sorting.
sub rnd    { int(rand($_[0])) }
sub pick   { $_[rnd(scalar @_)] }
sub chance { rand() < $_[0] }
sub shuffle { my @a = @_; for (my $i = $#a; $i > 0; $i--) { my $j = rnd($i + 1); @a[$i, $j] = @a[$j, $i]; } @a }

my $AUTHOR_NAME  = $ENV{GIT_AUTHOR_NAME};
my $AUTHOR_EMAIL = $ENV{GIT_AUTHOR_EMAIL};
my $LIST         = 'list@example.org';
my $EPOCH_V1     = 1704110400;          # 2024-01-01 12:00:00 UTC, v1 is sent
my $REV_GAP      = 7 * 86400;           # one revision per week
my $NSLOTS       = 5;                   # functions per generated C file

my @SUBSYS = qw(frob gpio iio mtd regulator);
my @NOUNS  = qw(widget gadget sprocket flange gizmo bracket lever ratchet
                spindle valve piston sensor dial gauge relay switch beacon
                anchor ballast capstan gimbal hopper ingot jig kiln);
my @ROLES  = qw(core ctl bus irq dma pm);
my @SLOTFN = qw(init enable disable configure reset);

sub wrap {
	my ($w, $text) = @_;
	my (@out, $line);
	$line = '';
	for my $word (split /\s+/, $text) {
		next if $word eq '';
		if ($line ne '' && length($line) + 1 + length($word) > $w) { push @out, $line; $line = $word; }
		else { $line = $line eq '' ? $word : "$line $word"; }
	}
	push @out, $line if $line ne '';
	return @out;
}

my @DAY = qw(Sun Mon Tue Wed Thu Fri Sat);
my @MON = qw(Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec);
# RFC 2822 date in a given UTC offset (minutes); $pad: zero-pad day of month
sub rfcdate {
	my ($t, $off, $pad) = @_;
	my @g = gmtime($t + $off * 60);
	my $sign = $off < 0 ? '-' : '+';
	my $a = abs($off);
	return sprintf("%s, %s %s %04d %02d:%02d:%02d %s%02d%02d", $DAY[$g[6]],
		$pad ? sprintf('%02d', $g[3]) : $g[3], $MON[$g[4]], $g[5] + 1900,
		$g[2], $g[1], $g[0], $sign, int($a / 60), $a % 60);
}
sub asctime {
	my @g = gmtime($_[0]);
	return sprintf("%s %s %2d %02d:%02d:%02d %04d", $DAY[$g[6]], $MON[$g[4]], $g[3], $g[2], $g[1], $g[0], $g[5] + 1900);
}
sub stamp {
	my @g = gmtime($_[0]);
	return sprintf("%04d%02d%02d%02d%02d%02d", $g[5] + 1900, $g[4] + 1, $g[3], $g[2], $g[1], $g[0]);
}
sub rev_time { $EPOCH_V1 + ($_[0] - 1) * $REV_GAP }
sub patch_msgid {
	my ($rev, $k) = @_;
	return stamp(rev_time($rev)) . ".$k.v$rev-PATCH\@example.org";
}

my $mode = shift @ARGV;
if ($mode eq 'repo') { repo_mode(@ARGV) } elsif ($mode eq 'mbox') { mbox_mode(@ARGV) } else { die "bad mode\n" }
exit 0;

########################################################################
# repo mode: fast-import stream on stdout, metadata to a file
########################################################################
sub repo_mode {
	my ($seed, $P, $REVS, $metafile, $onto) = @_;
	srand($seed * 7919 + 101);
	binmode STDOUT;

	my $nfiles = $P > 50 * $NSLOTS ? int(($P + $NSLOTS - 1) / $NSLOTS) : 50;
	my @files;
	for my $i (0 .. $nfiles - 1) {
		my $name = $NOUNS[$i % @NOUNS] . '-' . $ROLES[int($i / @NOUNS) % @ROLES];
		$name .= int($i / (@NOUNS * @ROLES)) if $i >= @NOUNS * @ROLES;
		my $sub = $SUBSYS[$i % @SUBSYS];
		(my $pfx = $name) =~ s/-/_/g;
		push @files, { name => $name, sub => $sub, pfx => $pfx, PFX => uc($pfx),
			c => "drivers/$sub/$name.c", h => "drivers/$sub/$name.h" };
	}

	my %content;   # path => [lines]
	for my $f (@files) {
		my ($pfx, $PFX, $name) = @$f{qw(pfx PFX name)};
		my @c = ('// SPDX-License-Identifier: GPL-2.0', '/*',
			" * $name.c - " . pick('register access', 'core support', 'control logic', 'bus glue') .
			" for the $f->{sub} $name block", ' *',
			' * Copyright (C) 2023 Example Corp.', ' */', '',
			'#include <linux/delay.h>', '#include <linux/io.h>', '#include <linux/mutex.h>',
			"#include \"$name.h\"", '');
		my @h = ('/* SPDX-License-Identifier: GPL-2.0 */', "#ifndef __${PFX}_H", "#define __${PFX}_H", '',
			'#include <linux/device.h>', '', "struct ${pfx}_dev {", "\tstruct device *dev;",
			"\tvoid __iomem *base;", "\tstruct mutex lock;", '};', '');
		for my $s (0 .. $NSLOTS - 1) {
			my $fn = "${pfx}_$SLOTFN[$s]";
			my $S  = uc($SLOTFN[$s]);
			my $off = sprintf('0x%02x', 0x10 * ($s + 1) + 4 * rnd(4));
			push @c, "int $fn(struct ${pfx}_dev *dev, unsigned int flags)", '{',
				"\tint ret = 0;", "\tu32 val;", '', "\tif (!dev)", "\t\treturn -EINVAL;", '',
				"\tval = readl(dev->base + $off);",
				"\tval &= ~${PFX}_${S}_MASK;",
				"\tval |= flags & ${PFX}_${S}_MASK;",
				"\twritel(val, dev->base + $off);", '',
				"\tret = ${pfx}_wait_ready(dev, " . (10 * (1 + rnd(20))) . ");",
				"\tif (ret)",
				"\t\tdev_err(dev->dev, \"$fn failed: %d\\n\", ret);", '',
				"\treturn ret;", '}', '';
			push @h, '/**', " * $fn - " . pick('bring up', 'switch on', 'switch off', 'program', 'reset') .
				" the $SLOTFN[$s] logic", ' * @dev: the device', ' * @flags: ' .
				pick('mode flags', 'configuration bits', 'request flags'), ' */',
				"int $fn(struct ${pfx}_dev *dev, unsigned int flags);", '';
		}
		push @h, "#endif /* __${PFX}_H */";
		pop @c if $c[-1] eq '';
		$content{$f->{c}} = \@c;
		$content{$f->{h}} = \@h;
	}

	# assign each patch a distinct (file, slot) so hunks never overlap
	my @pairs = shuffle(map { my $fi = $_; map { [$fi, $_] } 0 .. $NSLOTS - 1 } 0 .. $#files);
	my @EXTRAS = (
		["mb();", 'add a full barrier after the register update'],
		["WARN_ON_ONCE(flags & ~%MASK%);", 'warn about unsupported flags'],
		["dev_dbg(dev->dev, \"%s: flags=%#x\\n\", __func__, flags);", 'add a debug message'],
		["lockdep_assert_held(&dev->lock);", 'assert that the lock is held'],
		["flags &= %MASK%;", 'mask the flags before using them'],
		["udelay(10);", 'give the hardware time to settle'],
		["val = readl(dev->base + %OFF%);", 'read back the register to flush the write'],
	);
	my @VERB1 = ('retry', 'handle timeouts in', 'recover from timeouts in');
	my @VERB2 = ('add', 'introduce', 'provide');
	my @VERB3 = ('clean up register access in', 'use named register offsets in', 'tidy up');
	my @WHY = (
		'The hardware occasionally needs more time than the datasheet claims, and the current code gives up too early.',
		'This was found while bringing up a new board revision with a slower reference clock.',
		'Without this the device can end up in an inconsistent state after a failed transition.',
		'No functional change intended for boards that were already working.',
		'Callers that already hold the lock can use the new variant directly.',
		'Magic numbers make the code hard to review against the register map.',
		'The error message now includes the function name so that failures can be told apart in the log.',
		'This is a prerequisite for the runtime PM rework later in this series.',
		'Tested on the reference board with repeated suspend/resume cycles.',
		'The old behaviour was harmless on existing hardware but breaks on the next generation.',
	);

	my @patches;
	for my $k (1 .. $P) {
		my ($fi, $s) = @{$pairs[$k - 1]};
		my $f = $files[$fi];
		my $r = rand();
		my $kind = $r < 0.45 ? 1 : $r < 0.75 ? 2 : 3;
		my $fn = "$f->{pfx}_$SLOTFN[$s]";
		my $subj = "$f->{sub}: $f->{name}: " . ($kind == 1 ? pick(@VERB1) . " $fn" :
			$kind == 2 ? pick(@VERB2) . " ${fn}_locked()" : pick(@VERB3) . " $fn()");
		my @why = shuffle(@WHY);
		my @body = wrap(72, join(' ', splice(@why, 0, 2 + rnd(3))));
		push @body, '', wrap(72, shift @why) if chance(0.3);
		my @tr;
		push @tr, 'Reported-by: ' . pick('Kai Tester <kai.tester@example.com>', 'Ravi Buildbot <ravi@ci.example.net>') if chance(0.15);
		push @tr, 'Suggested-by: ' . pick('Mira Maintainer <mira@example.com>', 'Otto Reviewer <otto@example.net>') if chance(0.1);
		push @tr, "Signed-off-by: $AUTHOR_NAME <$AUTHOR_EMAIL>";
		push @patches, { fi => $fi, slot => $s, kind => $kind, fn => $fn, subj => $subj,
			msg => join("\n", $subj, '', @body, '', @tr) . "\n",
			wait2 => 50 * (1 + rnd(10)), off => sprintf('0x%02x', 0x10 * ($s + 1) + 4 * rnd(4)),
			extra0 => rnd(scalar @EXTRAS), variant => 0 };
	}

	my $title = pick(@SUBSYS) . ': ' . pick('rework register access and locking',
		'timeout handling and helper cleanups', 'prepare drivers for runtime PM',
		'fix flaky resets and add locked helpers');
	open(my $meta, '>', $metafile) or die "$metafile: $!\n";
	print $meta "title\t$title\n";

	my $mark = 0;
	my $emit_commit = sub {
		my ($ref, $from, $time, $msg, $changed) = @_;
		$mark++;
		print "commit $ref\nmark :$mark\n";
		print "author $AUTHOR_NAME <$AUTHOR_EMAIL> $time +0000\n";
		print "committer $AUTHOR_NAME <$AUTHOR_EMAIL> $time +0000\n";
		print 'data ', length($msg), "\n$msg\n";
		print "from $from\n" if defined $from;
		# -b: on top of the existing main (^0: read from the repository)
		print "from refs/heads/main^0\n" if !defined $from && $onto;
		for my $path (@$changed) {
			my $data = join("\n", @{$content{$path}}) . "\n";
			print "M 100644 inline $path\ndata ", length($data), "\n$data\n";
		}
		return $mark;
	};
	my $base = $emit_commit->('refs/heads/main', undef, 1703505600,
		"Initial import of the example drivers\n\nSigned-off-by: $AUTHOR_NAME <$AUTHOR_EMAIL>\n",
		[map { ($_->{c}, $_->{h}) } @files]);
	print "reset refs/tags/base\nfrom :$base\n\n";
	my %base_content = map { $_ => [@{$content{$_}}] } keys %content;

	for my $rev (1 .. $REVS) {
		if ($rev > 1) {
			for my $k (1 .. $P) {
				my $p = $patches[$k - 1];
				next unless chance(0.6);   # ~40% of patches stay identical
				$p->{variant}++;
				my $e = $EXTRAS[($p->{extra0} + $p->{variant}) % @EXTRAS];
				print $meta "change\t$rev\t$k\t$e->[1]\n";
			}
		}
		%content = map { $_ => [@{$base_content{$_}}] } keys %base_content;
		my $from = ":$base";
		for my $k (1 .. $P) {
			my $p = $patches[$k - 1];
			my $f = $files[$p->{fi}];
			my ($fn, $S, $pfx, $PFX) = ($p->{fn}, uc($SLOTFN[$p->{slot}]), $f->{pfx}, $f->{PFX});
			my $c = $content{$f->{c}};
			my $h = $content{$f->{h}};
			my ($start) = grep { $c->[$_] =~ /^int \Q$fn\E\(/ } 0 .. $#$c;
			my ($ret) = grep { $c->[$_] eq "\treturn ret;" } $start .. $#$c;
			my ($hproto) = grep { $h->[$_] =~ /^int \Q$fn\E\(/ } 0 .. $#$h;
			my ($off) = $c->[$start + 8] =~ /(0x[0-9a-f]+)/;
			my @extra = map {
				my $l = $EXTRAS[($p->{extra0} + $_) % @EXTRAS][0];
				$l =~ s/%MASK%/${PFX}_${S}_MASK/g; $l =~ s/%OFF%/$off/g; $l
			} 1 .. $p->{variant};
			my @changed = ($f->{c});
			if ($p->{kind} == 1) {
				$c->[$start + 10] = "\tval |= (flags << ${PFX}_${S}_SHIFT) & ${PFX}_${S}_MASK;";
				splice @$c, $ret, 0, "\tif (ret == -ETIMEDOUT) {",
					"\t\tdev_warn(dev->dev, \"$fn: timed out, retrying\\n\");",
					(map { "\t$_" } @extra),
					"\t\tret = ${pfx}_wait_ready(dev, $p->{wait2});", "\t}", '';
			} elsif ($p->{kind} == 2) {
				my @new = ("int ${fn}_locked(struct ${pfx}_dev *dev, unsigned int flags)", '{',
					"\tint ret;", '', "\tmutex_lock(&dev->lock);", @extra,
					"\tret = $fn(dev, flags);", "\tmutex_unlock(&dev->lock);", '', "\treturn ret;", '}');
				if ($ret + 2 > $#$c) { push @$c, '', @new; }
				else { splice @$c, $ret + 3, 0, @new, ''; }
				splice @$h, $hproto + 1, 0, "int ${fn}_locked(struct ${pfx}_dev *dev, unsigned int flags);";
				push @changed, $f->{h};
			} else {
				$c->[$start + 8]  = "\tval = readl(dev->base + ${PFX}_REG_${S});";
				$c->[$start + 11] = "\twritel(val, dev->base + ${PFX}_REG_${S});";
				$c->[$start + 15] = "\t\tdev_err(dev->dev, \"%s: wait failed: %d\\n\", __func__, ret);";
				splice @$c, $start + 12, 0, @extra if @extra;
				splice @$h, $hproto + 1, 0, "#define ${PFX}_REG_${S}\t$off";
				push @changed, $f->{h};
			}
			my $t = rev_time($rev) - 7200 + 60 * $k;
			$from = ':' . $emit_commit->("refs/heads/v$rev", $from, $t, $p->{msg}, \@changed);
		}
		print "\n";
	}
	close $meta;
}

########################################################################
# mbox mode
########################################################################

# split a raw message into ([ [name, raw-header-text], ... ], body)
sub parse_msg {
	my ($raw) = @_;
	my ($head, $body) = split /\n\n/, $raw, 2;
	$body = '' unless defined $body;
	my @h;
	for my $line (split /\n/, $head) {
		if ($line =~ /^[ \t]/ && @h) { $h[-1][1] .= "\n$line"; }
		elsif ($line =~ /^([!-9;-~]+):/) { push @h, [$1, $line]; }
	}
	return (\@h, $body);
}
sub hget {
	my ($h, $name) = @_;
	for (@$h) {
		if (lc($_->[0]) eq lc($name)) {
			(my $v = $_->[1]) =~ s/^[^:]+:\s*//;
			$v =~ s/\n[ \t]+/ /g;
			return $v;
		}
	}
	return undef;
}
sub hset {
	my ($h, $name, $value) = @_;
	for (@$h) { if (lc($_->[0]) eq lc($name)) { $_->[1] = "$_->[0]: $value"; return; } }
	push @$h, [$name, "$name: $value"];
}
sub hdel { my ($h, $name) = @_; @$h = grep { lc($_->[0]) ne lc($name) } @$h; }

sub rfc2047 {
	my ($s) = @_;
	return $s if $s !~ /[^\x20-\x7e]/;
	(my $e = $s) =~ s/([^A-Za-z0-9!*+\-\/ ])/sprintf('=%02X', ord($1))/ge;
	$e =~ tr/ /_/;
	return "=?UTF-8?q?$e?=";
}

sub mbox_mode {
	my ($seed, $P, $REVS, $R, $out, $fpdir, $metafile) = @_;
	srand($seed * 104729 + 7);

	my ($title, %changes);
	open(my $meta, '<', $metafile) or die "$metafile: $!\n";
	while (<$meta>) {
		chomp;
		my @f = split /\t/;
		if ($f[0] eq 'title') { $title = $f[1]; }
		elsif ($f[0] eq 'change') { push @{$changes{$f[1]}}, [$f[2], $f[3]]; }
	}
	close $meta;

	my @REVIEWERS = (
		['Mira Maintainer', 'mira@example.com', 60, 1, '> '],
		['Otto Reviewer', 'otto@example.net', 120, 0, '> '],
		['Priya Raman', 'priya.raman@example.in', 330, 1, '> '],
		['Tomasz Nowak', 'tnowak@example.pl', 60, 0, '> '],
		['Grace Hollis', 'grace@hollis.example', -300, 1, '> '],
		['Kenji Watanabe', 'kenji.w@example.jp', 540, 1, '> '],
		["J\xc3\xb6rg M\xc3\xbcller", 'joerg.mueller@example.de', 60, 1, '> '],
		['Sven Lindqvist', 'sven@example.se', 60, 0, '>'],
		['Amara Okafor', 'amara.okafor@example.com', 0, 1, '> '],
		['Luis Ortega', 'lortega@example.es', 60, 0, '> '],
		["Jos\xc3\xa9 \xc3\x81lvarez", 'jose.alvarez@example.mx', -360, 1, '> '],
		['Hannah Berg', 'hberg@example.no', 60, 1, '> '],
		['Wei Zhang', 'wei.zhang@example.cn', 480, 1, '> '],
		['Rafael Costa', 'rcosta@example.br', -180, 0, '> '],
		['Fiona Walsh', 'fiona@walsh.example', 0, 1, '> '],
		['Dmitri Volkov', 'dvolkov@example.org', 180, 1, '>'],
		['Aisha Rahman', 'aisha.rahman@example.net', 300, 0, '> '],
		['Ben Carter', 'ben.carter@example.com', -480, 1, '> '],
		["Zo\xc3\xab \xc3\x98degaard", 'zoe@odegaard.example', 60, 1, '> '],
		['Marco Rossi', 'mrossi@example.it', 60, 1, '> '],
		['Nina Petrova', 'nina.petrova@example.bg', 120, 0, '> '],
		['Oscar Lind', 'olind@example.fi', 120, 1, '> '],
		['Yuki Tanaka', 'ytanaka@example.jp', 540, 0, '> '],
		['Carlos Mendes', 'cmendes@example.pt', 0, 1, '> '],
		["\xc5\x81ukasz Wi\xc5\x9bniewski", 'lukasz.w@example.pl', 60, 1, '> '],
		['Emily Chen', 'emily.chen@example.ca', -300, 1, '> '],
		['Arjun Mehta', 'arjun@mehta.example', 330, 0, '> '],
		['Sofia Greco', 'sgreco@example.gr', 120, 1, '> '],
		['Pieter de Vries', 'pieter@devries.example', 60, 1, '> '],
		['Lena Fischer', 'lena.fischer@example.at', 60, 0, '> '],
		['Samir Haddad', 'shaddad@example.lb', 120, 1, '> '],
		['Ingrid Dahl', 'ingrid@dahl.example', 60, 1, '> '],
		['Kofi Mensah', 'kofi.mensah@example.gh', 0, 0, '> '],
		['Rosa Jimenez', 'rjimenez@example.es', 60, 1, '> '],
		['Viktor Horvat', 'vhorvat@example.hr', 60, 1, '> '],
		['Maya Levi', 'maya.levi@example.il', 120, 0, '> '],
		['Oliver Grant', 'ogrant@example.co.uk', 0, 1, '> '],
		['Tariq Aziz', 'tariq@aziz.example', 300, 1, '> '],
		['Elena Popescu', 'epopescu@example.ro', 120, 1, '> '],
		['Hugo Martin', 'hugo.martin@example.fr', 60, 0, '> '],
	);
	my @PEOPLE = map { { name => $_->[0], email => $_->[1], tz => $_->[2], pad => $_->[3], q => $_->[4],
		from => rfc2047($_->[0]) . " <$_->[1]>" } } @REVIEWERS;
	my $AUTHOR = { name => $AUTHOR_NAME, email => $AUTHOR_EMAIL, tz => 0, pad => 0, q => '> ',
		from => "$AUTHOR_NAME <$AUTHOR_EMAIL>", author => 1 };

	my @msgs;   # { t, seq, rev, k, hdr, body, text (decoded lines), depth, sender, msgid, refs }
	my $seq = 0;

	# ---- the patches, straight from git format-patch ----
	my @BLURB = (
		'This series reworks how the drivers in this subsystem talk to the hardware.',
		'Most of the changes are mechanical, but a few of them fix real problems seen on the reference boards.',
		'The first patches add locked variants of the common helpers so that callers stop open-coding the locking.',
		'The remaining patches replace magic register offsets with named constants and make the timeout handling consistent.',
		'Nothing here should change behaviour on boards that were already working.',
		'I have tested this on the reference board and on two older revisions of the hardware.',
		'Review of the locking changes would be especially appreciated.',
		'The series applies cleanly on top of the current development branch.',
	);
	my %cover_of;
	for my $rev (1 .. $REVS) {
		my $dir = "$fpdir/v$rev";
		opendir(my $dh, $dir) or die "$dir: $!\n";
		my @files = sort grep { /\.patch$/ } readdir $dh;
		closedir $dh;
		die "v$rev: expected " . ($P + 1) . " files, got " . scalar(@files) . "\n" if @files != $P + 1;
		my (%idmap, @revmsgs);
		for my $k (0 .. $P) {
			open(my $fh, '<:raw', "$dir/$files[$k]") or die "$files[$k]: $!\n";
			local $/;
			my $raw = <$fh>;
			close $fh;
			$raw =~ s/^From [0-9a-f]{40} [^\n]*\n//;
			my ($h, $body) = parse_msg($raw);
			my $old = hget($h, 'Message-Id');
			$old =~ s/^\s*<|>\s*$//g;
			my $new = patch_msgid($rev, $k);
			$idmap{$old} = $new;
			my $t = rev_time($rev) + $k;
			hset($h, 'Message-Id', "<$new>");
			hset($h, 'Date', rfcdate($t, 0, 0));
			if ($k == 0) {
				my $subj = hget($h, 'Subject');
				$subj =~ s/\*\*\* SUBJECT HERE \*\*\*/$title/;
				hset($h, 'Subject', $subj);
				my @b = wrap(72, join(' ', @BLURB[0 .. 2], (shuffle(@BLURB[3 .. 5]))[0 .. rnd(3)]));
				push @b, '', wrap(72, $BLURB[-2] . ' ' . $BLURB[-1]);
				if ($rev > 1) {
					push @b, '', "Changes in v$rev:";
					for my $c (@{$changes{$rev} || []}) { push @b, wrap(72, "- patch $c->[0]: $c->[1]"); }
					push @b, '- Collected review tags';
					for my $pr (reverse 1 .. $rev - 1) {
						push @b, "- Link to v$pr: https://lore.example.org/r/" . patch_msgid($pr, 0);
					}
				}
				my $blurb = join("\n", @b);
				$body =~ s/\*\*\* BLURB HERE \*\*\*/$blurb/;
			}
			push @revmsgs, { t => $t, seq => $seq++, rev => $rev, k => $k, hdr => $h, body => $body,
				depth => 0, sender => $AUTHOR, msgid => $new };
		}
		for my $m (@revmsgs) {
			for my $hn ('In-Reply-To', 'References') {
				my $v = hget($m->{hdr}, $hn);
				next unless defined $v;
				my @ids = map { my $i = $_; $i =~ s/^<|>$//g; $idmap{$i} // $i } split ' ', $v;
				hset($m->{hdr}, $hn, join("\n\t", map { "<$_>" } @ids));
				$m->{refs} = \@ids if $hn eq 'References';
			}
			$m->{refs} ||= [];
			$m->{text} = [split /\n/, $m->{body}];
			$m->{subject} = hget($m->{hdr}, 'Subject');
			$m->{date} = hget($m->{hdr}, 'Date');
		}
		$cover_of{$rev} = $revmsgs[0];
		push @msgs, @revmsgs;
	}

	# ---- replies ----
	my @OPEN = ('Hi Dana,', 'Hi,', 'Hello Dana,', '', '', '');
	my @COMMENT = (
		'Shouldn\'t this check the return value before touching the register again?',
		'I think this needs a comment explaining why the delay is required.',
		'Nit: the error message could mention the device name.',
		'This looks correct to me, but I wonder whether the lock is really needed here.',
		'Is there a reason not to use readl_poll_timeout() here?',
		'The datasheet says the bit is write-one-to-clear, so this may not do what you expect.',
		'Please keep the variables in reverse christmas tree order.',
		'Can this race with the interrupt handler?',
		'I gave this a spin on my board and did not see any regressions.',
		'Looks good, just one small comment below.',
		'This will conflict with the pending cleanup in the other tree, but that is easy to resolve.',
		'The commit message could explain the user-visible impact a bit better.',
		'Why is the timeout different from the one used in the enable path?',
		'Agreed, that would be cleaner.',
		'I do not have a strong opinion either way.',
	);
	my @LONG = (
		'I ran the whole series through the usual stress tests on three different boards overnight (suspend/resume, hotplug, and the register fuzzing script) and nothing fell over, which is more than I can say for the previous attempt at this.',
		'One more thought: if we ever need to support the older controller revision again, this is the place where the extra status read has to go, so it might be worth leaving a note for whoever touches this next time.',
	);
	my @UTF = (
		"Minor: the naïve retry loop is fine for now — we can revisit once the firmware fix lands.",
		"Tested on the “Rev C” board at 25 °C and at −10 °C; both pass.",
	);
	my @AUTHOR_REPLY = (
		'Good catch, I will fix this in the next revision.',
		'Thanks for the review!',
		'The lock is needed because the enable path can run from the workqueue as well.',
		'I looked into readl_poll_timeout() but it does not fit the retry logic here.',
		'Right, I will update the commit message.',
	);
	my @SIGN = ("Thanks,\n%N", "Cheers,\n%N", "Regards,\n%N", "-- \n%N", "%N", "Thanks!");

	my $per_rev = int($R / $REVS);
	my @nrev = map { $per_rev } 1 .. $REVS;
	$nrev[-1] += $R - $per_rev * $REVS;

	# a few replies get a forced encoding (plus a trailer) so that small
	# threads exercise every decoder too
	my %forced;
	{
		my $base = $R - $nrev[-1];
		my $n = $nrev[-1];
		my @slots = (int($n * 0.2), int($n * 0.5), int($n * 0.8));
		my @kinds = ('qp', 'b64', 'alt');
		for my $i (0 .. 2) { $forced{$base + $slots[$i]} //= $kinds[$i] if $n > 2; }
	}

	my $ri = 0;
	for my $rev (1 .. $REVS) {
		my @revp = grep { $_->{rev} == $rev } @msgs;
		my $t0 = rev_time($rev) + 600;
		my $t1 = rev_time($rev) + $REV_GAP - 600;
		my @times = sort { $a <=> $b } map { $t0 + rnd($t1 - $t0) } 1 .. $nrev[$rev - 1];
		my @replies;
		for my $t (@times) {
			my $force = $forced{$ri};
			my $parent;
			my @cand = grep { $_->{depth} < 4 } @replies;
			if (!$force && @cand && chance(0.35)) {
				my $lo = @cand > 40 ? @cand - 40 : 0;
				$parent = $cand[$lo + rnd(@cand - $lo)];
			} elsif (!$force && chance(0.06)) {
				$parent = $revp[0];
			} else {
				$parent = $revp[1 + rnd($P)];
			}
			my $sender;
			if ($parent->{depth} > 0 && !$parent->{sender}{author} && chance(0.4)) {
				$sender = $AUTHOR;
			} elsif ($parent->{sender}{author} && $parent->{depth} > 0 && chance(0.6)) {
				$sender = $parent->{parent}{sender};
			}
			if (!$sender || $sender == $parent->{sender}) {
				do { $sender = pick(@PEOPLE) } while ($sender == $parent->{sender});
			}
			my $trailer_p = $sender->{author} ? 0 : $parent->{depth} > 0 ? 0.15 : $parent->{k} == 0 ? 0.12 : 0.33;
			my $with_trailer = $force ? 1 : chance($trailer_p);

			# --- body ---
			my @b;
			my $open = pick(@OPEN);
			push @b, $open, '' if $open ne '' && !$sender->{author};
			my $pname = $parent->{sender}{name};
			push @b, "On $parent->{date}, $pname wrote:";
			my $q = $sender->{q};
			my $quote = sub { map { $_ eq '' ? '>' : $_ eq '[...]' ? $_ : /^>/ ? ">$_" : "$q$_" } @_ };
			my @pt = @{$parent->{text}};
			my $rounds = $parent->{depth} == 0 && $parent->{k} > 0 ? 1 + rnd(2) : 1;
			my $utf = 0;
			for my $round (1 .. $rounds) {
				my @ql;
				if ($parent->{depth} == 0 && $parent->{k} > 0) {
					# quote from the diff only: between "diff --git" and the signature
					my ($d0) = grep { $pt[$_] =~ /^diff --git / } 0 .. $#pt;
					my ($d1) = grep { $pt[$_] eq '-- ' } reverse 0 .. $#pt;
					$d0 //= 0;
					$d1 = @pt unless defined $d1 && $d1 > $d0;
					my @hl = grep { $pt[$_] =~ /^[+ -]/ && $pt[$_] !~ /^(\+\+\+|---) / } $d0 .. $d1 - 1;
					my $at = @hl ? $hl[rnd(scalar @hl)] : $d0;
					my $n = 2 + rnd(4);
					$at = $d1 - $n if $at + $n > $d1;
					$at = 0 if $at < 0;
					@ql = @pt[$at .. $at + $n - 1];
					@ql = ('[...]', @ql) if $round > 1 || chance(0.5);
				} elsif ($parent->{depth} == 0) {
					my @bl = grep { $_ ne '' } @pt[0 .. ($#pt < 12 ? $#pt : 12)];
					@ql = @bl[0 .. ($#bl < 2 ? $#bl : 2)];
				} else {
					my @bl = grep { $_ ne '' && !/^On .* wrote:$/ } @pt;
					@ql = @bl[0 .. ($#bl < 3 ? $#bl : 2 + rnd(2))];
				}
				push @b, $quote->(@ql), '';
				my @para;
				if ($sender->{author}) {
					@para = wrap(72, pick(@AUTHOR_REPLY));
				} elsif (chance(0.08)) {
					@para = ('From ' . lcfirst(pick('a quick look this seems fine.', 'what I can tell the lock is not needed.',
						'my side this is good to go.')), wrap(72, pick(@COMMENT)));
				} elsif (chance(0.08)) {
					@para = (pick(@LONG));   # deliberately not wrapped
				} else {
					@para = wrap(72, join(' ', (shuffle(@COMMENT))[0 .. rnd(3)]));
				}
				push @b, @para, '';
			}
			my $kind = $force || (rand() < 0.05 ? 'qp' : rand() < 0.05 ? 'b64' : rand() < 0.05 ? 'alt' : 'plain');
			if ($kind ne 'plain' && chance(0.7)) { push @b, wrap(72, pick(@UTF)), ''; $utf = 1; }
			my @trailers;
			if ($with_trailer) {
				my $r = rand();
				my $tt = $r < 0.6 ? 'Reviewed-by' : $r < 0.85 ? 'Acked-by' : 'Tested-by';
				push @b, 'For the whole series:', '' if $parent->{depth} == 0 && $parent->{k} == 0;
				push @trailers, "$tt: $sender->{name} <$sender->{email}>";
				push @trailers, "Tested-by: $sender->{name} <$sender->{email}>" if $tt eq 'Reviewed-by' && chance(0.1);
				push @b, @trailers, '';
			}
			(my $sig = pick(@SIGN)) =~ s/%N/(split ' ', $sender->{name})[0]/e;
			push @b, split /\n/, $sig;
			$utf = 1 if join('', @b) =~ /[^\x00-\x7f]/;

			# --- headers ---
			my $id = stamp($t) . ".r$ri." . (split /@/, $sender->{email})[0] . '@' .
				($sender->{author} ? 'example.org' : 'mail.example.net');
			my @refs = (@{$parent->{refs}}, $parent->{msgid});
			my $subj = $parent->{subject};
			$subj = "Re: $subj" unless $subj =~ /^Re:/i;
			my $date = rfcdate($t, $sender->{tz}, $sender->{pad});
			my @h = (['From', "From: $sender->{from}"],
				['To', "To: $parent->{sender}{from}"],
				['Cc', "Cc: $LIST"],
				['Subject', "Subject: $subj"],
				['Date', "Date: $date"],
				[$sender->{pad} ? 'Message-ID' : 'Message-Id', ($sender->{pad} ? 'Message-ID' : 'Message-Id') . ": <$id>"],
				['In-Reply-To', "In-Reply-To: <$parent->{msgid}>"],
				['References', 'References: ' . join("\n ", map { "<$_>" } @refs)],
				['MIME-Version', 'MIME-Version: 1.0']);
			my $text = join("\n", @b) . "\n";
			my $cs = $utf ? 'utf-8' : 'us-ascii';
			my $body;
			if ($kind eq 'qp') {
				push @h, ['Content-Type', "Content-Type: text/plain; charset=\"$cs\""],
					['Content-Transfer-Encoding', 'Content-Transfer-Encoding: quoted-printable'];
				$body = encode_qp($text);
			} elsif ($kind eq 'b64') {
				push @h, ['Content-Type', "Content-Type: text/plain; charset=$cs"],
					['Content-Transfer-Encoding', 'Content-Transfer-Encoding: base64'];
				$body = encode_base64($text);
			} elsif ($kind eq 'alt') {
				my $bd = "=_alt_" . stamp($t) . "_$ri";
				push @h, ['Content-Type', "Content-Type: multipart/alternative;\n\tboundary=\"$bd\""];
				(my $html = $text) =~ s/&/&amp;/g;
				$html =~ s/</&lt;/g; $html =~ s/>/&gt;/g;
				$html = join('', map { $_ eq '' ? "<br>\n" : "<div>$_</div>\n" } split /\n/, $html);
				my $pcte = $utf ? 'quoted-printable' : '7bit';
				$body = "This is a multi-part message in MIME format.\n\n--$bd\n" .
					"Content-Type: text/plain; charset=\"$cs\"\nContent-Transfer-Encoding: $pcte\n\n" .
					($utf ? encode_qp($text) : $text) . "\n--$bd\n" .
					"Content-Type: text/html; charset=\"$cs\"\nContent-Transfer-Encoding: quoted-printable\n\n" .
					encode_qp("<html><body>\n$html</body></html>\n") . "\n--$bd--\n";
			} else {
				push @h, ['Content-Type', "Content-Type: text/plain; charset=$cs"],
					['Content-Transfer-Encoding', 'Content-Transfer-Encoding: ' . ($utf ? '8bit' : '7bit')];
				$body = $text;
			}
			my $m = { t => $t, seq => $seq++, rev => $rev, k => $parent->{k}, hdr => \@h, body => $body,
				text => \@b, depth => $parent->{depth} + 1, sender => $sender, msgid => $id, refs => \@refs,
				subject => $subj, date => $date, parent => $parent };
			push @replies, $m;
			$ri++;
		}
		push @msgs, @replies;
	}

	# ---- write the mboxrd ----
	open(my $fh, '>:raw', $out) or die "$out: $!\n";
	for my $m (sort { $a->{t} <=> $b->{t} || $a->{seq} <=> $b->{seq} } @msgs) {
		my $msg = join("\n", map { $_->[1] } @{$m->{hdr}}) . "\n\n" . $m->{body};
		$msg .= "\n" unless $msg =~ /\n\z/;
		$msg =~ s/^(>*From )/>$1/mg;
		print $fh "From $m->{sender}{email} " . asctime($m->{t}) . "\n" . $msg . "\n";
	}
	close $fh or die "$out: $!\n";
	print patch_msgid($REVS, 0), "\n";
}
PERL

# 1) the repository: base commit plus branches v1..vN
if [ -z "$onto" ]; then
	git init -q -b main "$repo"
	git -C "$repo" config user.name "$GIT_AUTHOR_NAME"
	git -C "$repo" config user.email "$GIT_AUTHOR_EMAIL"
fi
perl -e "$PERL_PROG" repo "$seed" "$patches" "$revisions" "$tmp/meta" \
	"${onto:+1}" | git -C "$repo" fast-import --quiet
[ -n "$onto" ] || git -C "$repo" reset -q --hard main
base=$(git -C "$repo" rev-parse base)

# 2) real format-patch output for every revision
gitc=(git -C "$repo" -c core.abbrev=12 -c diff.algorithm=myers -c format.coverFromDescription=message)
for ((n = 1; n <= revisions; n++)); do
	args=(--quiet --cover-letter --base="$base" --thread=shallow --to=list@example.org
		--signature=2.43.0 -o "$tmp/fp/v$n")
	# real-world practice: v1 carries no version tag, later ones are -vN and
	# reply to the previous cover letter
	if [ "$n" -gt 1 ]; then
		prev_ts=$(perl -e '@g = gmtime(1704110400 + ($ARGV[0] - 1) * 604800);
			printf "%04d%02d%02d%02d%02d%02d", $g[5]+1900, $g[4]+1, @g[3,2,1,0]' "$((n - 1))")
		args+=(-v"$n" --in-reply-to="<$prev_ts.0.v$((n - 1))-PATCH@example.org>")
	fi
	"${gitc[@]}" format-patch "${args[@]}" "base..v$n"
done

# 3) rewrite ids, fill in covers, add replies, write the mbox
perl -e "$PERL_PROG" mbox "$seed" "$patches" "$revisions" "$replies" "$out" "$tmp/fp" "$tmp/meta"
