#!/usr/bin/perl
# trace2-sum.pl - where the time of a command that runs git goes, from
# git's trace2 events (GIT_TRACE2_EVENT=FILE) on stdin: each git command
# by name (options before it and -C/-c dropped), how often it ran and its
# own elapsed time; then the index and checkout regions inside them,
# summed over every process. Prints Markdown.
#
# Usage: trace2-sum.pl TOTAL_SECONDS TITLE <EVENTS
use strict;
use warnings;
use JSON::PP;

my ($total, $title) = @ARGV;
die "usage: trace2-sum.pl TOTAL_SECONDS TITLE <EVENTS\n" unless defined $title;
my (%cmd, %elapsed, %region, %rcount);
while (my $line = <STDIN>) {
	my $e = eval { decode_json($line) } or next;
	my $sid = $e->{sid} // next;
	if ($e->{event} eq 'start') {
		my @a = @{$e->{argv}};
		shift @a;
		while (@a && $a[0] =~ /^-/) {
			my $o = shift @a;
			shift @a if $o eq '-C' || $o eq '-c';
		}
		$cmd{$sid} = $a[0] // '?';
	} elsif ($e->{event} eq 'exit') {
		# top-level processes only: a child's time is in its parent's
		$elapsed{$sid} = $e->{t_abs} if $sid !~ m{/};
	} elsif ($e->{event} eq 'region_leave' && defined $e->{t_rel}) {
		my $k = ($e->{category} // '') . ':' . ($e->{label} // '');
		$region{$k} += $e->{t_rel};
		$rcount{$k}++;
	}
}
my (%by, %n);
for my $sid (keys %elapsed) {
	my $c = $cmd{$sid} // '?';
	$by{$c} += $elapsed{$sid};
	$n{$c}++;
}
my $git = 0;
$git += $_ for values %by;
printf "%s: %.2f s in all, %.2f s in %d git processes (the rest: lore-am and starting them)\n\n",
	$title, $total, $git, scalar(keys %elapsed);
print "| git command | runs | seconds |\n|---|---|---|\n";
for my $c (sort { $by{$b} <=> $by{$a} || $a cmp $b } keys %by) {
	next if $by{$c} < 0.005 * $total && $c ne 'am';
	printf "| %s | %d | %.3f |\n", $c, $n{$c}, $by{$c};
}
print "\n| region (all processes) | times | seconds |\n|---|---|---|\n";
my @r = sort { $region{$b} <=> $region{$a} || $a cmp $b } keys %region;
for my $k (grep { $region{$_} >= 0.01 } @r[0 .. ($#r < 7 ? $#r : 7)]) {
	printf "| %s | %d | %.3f |\n", $k, $rcount{$k}, $region{$k};
}
print "\n";
