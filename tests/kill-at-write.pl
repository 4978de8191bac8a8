# kill-at-write.pl SIG FILE ERR CMD...: run CMD (stdin /dev/null, stdout
# discarded, stderr to ERR) and send it SIG the moment FILE grows past the
# size it had at the start, that is, in the middle of CMD's write. FILE may
# be a glob (such as 'out/*.tmp-*'): then the sizes of the files matching
# it count. Prints "STATUS SIZE": STATUS is "sig N" or "exit N", SIZE is
# FILE's size when the signal went out, or "none" when CMD ended before
# the signal could reach it. Bounded: gives up (and kills CMD) after 600 seconds.
use strict;
use warnings;
use POSIX ();
use Time::HiRes qw(time);

my ($sig, $file, $err, @cmd) = @ARGV;

sub size {
	my $n = 0;
	$n += -s $_ // 0 for ($file =~ /[*?]/ ? glob($file) : ($file));
	return $n;
}

my $old = size();
my $pid = fork // die "fork: $!";
if (!$pid) {
	# CMD starts with every signal at its default and none blocked: an
	# ignored signal survives exec, and a test suite started in the
	# background (make check &) has SIGINT and SIGQUIT ignored, which
	# would keep the SIGINT case from ending CMD
	$SIG{$_} = 'DEFAULT' for keys %SIG;
	POSIX::sigprocmask(POSIX::SIG_SETMASK(), POSIX::SigSet->new());
	open STDIN, '<', '/dev/null';
	open STDOUT, '>', '/dev/null';
	open STDERR, '>', $err;
	exec @cmd or POSIX::_exit(127);
}
my $at = 'none';
my $end = time + 600;
while (time < $end) {
	my $s = size();
	if ($s > $old) {
		# stopped first: CMD may end between the look at FILE and the
		# signal (seen on a loaded machine), and an end before the
		# signal is no landing ("none", so the caller tries again)
		kill 'STOP', $pid;
		last if waitpid($pid, POSIX::WNOHANG()) == $pid;
		kill $sig, $pid;
		kill 'CONT', $pid;
		$at = $s;
		last;
	}
	last if waitpid($pid, POSIX::WNOHANG()) == $pid;
}
if ($at eq 'none' && kill 0, $pid) {
	kill 'KILL', $pid;
}
waitpid $pid, 0 if kill 0, $pid;
my $st = $?;
print(($st & 127) ? 'sig ' . ($st & 127) : 'exit ' . ($st >> 8), " $at\n");
