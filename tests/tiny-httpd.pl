#!/usr/bin/perl
# tiny-httpd.pl - a deliberately simple HTTP/1.1 server for lore-am's error
# tests: it answers every request the same way, one connection at a time,
# on 127.0.0.1 only.
#
#   tiny-httpd.pl PORTFILE LOG stall
#       accept connections, read the request, never answer
#   tiny-httpd.pl PORTFILE LOG serve FILE TYPE [STATUS [SECONDS]]
#       answer STATUS (200) with Content-Type TYPE and FILE as the body
#       ("-": empty), sent in 20 slices spread over SECONDS (0)
#   tiny-httpd.pl PORTFILE LOG redirect LOCATION
#       answer "302 Found" with that Location header
#   tiny-httpd.pl PORTFILE LOG drip FILE TYPE INTERVAL [LIFETIME]
#       answer 200 with FILE, one byte every INTERVAL seconds (a
#       slow-loris server: never quite stalled, never done); with
#       LIFETIME, the server exits by itself after that many seconds
#   tiny-httpd.pl PORTFILE - freeport
#       write a port that nothing listens on (bound, then closed) and exit
#
# The port (chosen by the kernel) is written to PORTFILE once listening;
# each request line is appended to LOG, a tab and the User-Agent after
# it. Stop it by its PID.
use strict;
use warnings;
use IO::Socket::INET;
use Time::HiRes qw(sleep);

my ($portfile, $log, $mode, @args) = @ARGV;
die "usage: tiny-httpd.pl PORTFILE LOG stall|serve|redirect|drip|freeport ...\n"
	unless defined $mode;

my $srv = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0,
	Proto => 'tcp', Listen => 16, ReuseAddr => 1)
	or die "tiny-httpd: cannot listen: $!\n";
my $port = $srv->sockport;
if ($mode eq 'freeport') {
	close $srv;
}
open(my $pf, '>', "$portfile.tmp") or die "tiny-httpd: $portfile: $!\n";
print $pf "$port\n";
close $pf;
rename("$portfile.tmp", $portfile) or die "tiny-httpd: rename: $!\n";
exit 0 if $mode eq 'freeport';

my $body = '';
my ($file, $type, $status, $secs) = @args;
if ($mode eq 'serve' || $mode eq 'drip') {
	die "tiny-httpd: $mode FILE TYPE ...\n" unless $type;
	if ($mode eq 'drip') {
		my $life = $secs;
		($secs, $status) = ($status || 1, 200);
		# SIGALRM's default action ends the process: bounded whatever
		# the client does
		alarm($life) if $life;
	}
	$status ||= 200;
	$secs ||= 0;
	if ($file ne '-') {
		open(my $fh, '<:raw', $file) or die "tiny-httpd: $file: $!\n";
		local $/;
		$body = <$fh>;
		close $fh;
	}
} elsif ($mode eq 'redirect') {
	die "tiny-httpd: redirect LOCATION\n" unless defined $file;
	($status, $type) = (302, 'text/plain');
} elsif ($mode ne 'stall') {
	die "tiny-httpd: unknown mode '$mode'\n";
}

sub read_request {
	my ($c) = @_;
	my $req = '';
	while ($req !~ /\r?\n\r?\n/) {
		my $n = sysread($c, my $buf, 4096);
		last unless $n;
		$req .= $buf;
	}
	my ($line) = split /\r?\n/, $req;
	my ($ua) = $req =~ /^User-Agent:[ \t]*([^\r\n]*)/mi;
	if (open(my $lf, '>>', $log)) {
		print $lf (defined $line ? $line : ''), "\t", $ua // '', "\n";
		close $lf;
	}
	return $line;
}

my @held;
$SIG{PIPE} = 'IGNORE';
while (my $c = $srv->accept) {
	my $line = read_request($c);
	if ($mode eq 'stall') {
		push @held, $c;	# keep it open, say nothing
		next;
	}
	my $head = defined $line && $line =~ /^HEAD /;
	my %reason = (200 => 'OK', 302 => 'Found', 404 => 'Not Found', 500 =>
		'Internal Server Error', 503 => 'Service Unavailable');
	my $loc = $mode eq 'redirect' ? "Location: $file\r\n" : '';
	syswrite($c, "HTTP/1.1 $status " . ($reason{$status} || 'Status') .
		"\r\n${loc}Content-Type: $type\r\nContent-Length: " .
		length($body) . "\r\nConnection: close\r\n\r\n");
	if ($mode eq 'drip') {
		for my $off (0 .. length($body) - 1) {
			syswrite($c, substr($body, $off, 1)) or last;
			sleep($secs);
		}
	} elsif (!$head && length $body) {
		my $n = 20;
		my $slice = int(length($body) / $n) + 1;
		for (my $off = 0; $off < length $body; $off += $slice) {
			syswrite($c, substr($body, $off, $slice)) or last;
			sleep($secs / $n) if $secs;
		}
	}
	close $c;
}
