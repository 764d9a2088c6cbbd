//! The CPU time other processes take on a game's CPUs, and the wall-clock
//! guard it extends.
//!
//! The contest's limit is CPU time; the wall clock only guards against a
//! program that hangs (sleeps, blocks, waits for a message that never
//! comes). On a busy machine a game also waits for its CPU while others
//! run, so its guard is extended by what they took: the busy time of the
//! game's CPUs (`/proc/stat`, steal time included) less the game's own CPU
//! time and the evaluator thread's that serves it. A game's own threads
//! competing with each other extend nothing (their time is the game's).
//! Where the game's threads can be listed (its cgroup), the extension is
//! also at most how long the game and the evaluator's thread serving it
//! waited on a run queue (a game waiting for its next card waits for the
//! evaluator): a program that sleeps while others work waits for nothing,
//! and ends at its guard; one whose threads wait for each other, or many
//! at once, waited no longer than the game (see `stalled`).

use crate::CpuMeter;
use crate::cgroup::Waits;
use rustix::thread::{CpuSet, sched_getaffinity};
use std::time::{Duration, Instant};

/// The guard is extended by at most this many times the wall limit: a
/// bound whatever the accounting says (a game whose waiting cannot be
/// read, one unconfined, that sleeps while others work ends there).
pub const MOST_EXTENSION: u32 = 4;

/// The kernel's clock ticks a second, the unit of `/proc/stat` and of a
/// process's CPU times in `/proc/PID/stat`.
pub fn clock_ticks() -> Option<u64> {
    // SAFETY: sysconf reads a constant of the C library.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    u64::try_from(ticks).ok().filter(|&t| t > 0)
}

/// The busy time of each CPU since boot (all but idle and iowait), indexed
/// by CPU number; `None` when `/proc/stat` cannot be read.
pub fn busy_times() -> Option<Vec<Option<Duration>>> {
    let text = std::fs::read_to_string("/proc/stat").ok()?;
    let ticks = clock_ticks()?;
    Some(busy_times_in(&text, ticks))
}

/// The busy time of each CPU in `text`, the contents of `/proc/stat`
/// (times in `ticks` a second), indexed by CPU number (proc(5)).
fn busy_times_in(text: &str, ticks: u64) -> Vec<Option<Duration>> {
    let mut times = Vec::new();
    for line in text.lines() {
        // "cpu3 user nice ...": the number is joined to the name. The line
        // of all CPUs together ("cpu  user nice ...") has none: its first
        // field is a time, not a CPU, and must not size the table.
        let Some((name, fields)) = line.split_once(' ') else {
            continue;
        };
        let Some(cpu) = name
            .strip_prefix("cpu")
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|&n| n < CpuSet::MAX_CPU)
        else {
            continue;
        };
        let values: Vec<u64> = fields
            .split_ascii_whitespace()
            .filter_map(|v| v.parse().ok())
            .collect();
        // user nice system idle iowait irq softirq steal (guest time is in
        // user already).
        let busy: u64 = [0, 1, 2, 5, 6, 7]
            .iter()
            .filter_map(|&i| values.get(i))
            .sum();
        if times.len() <= cpu {
            times.resize(cpu + 1, None);
        }
        times[cpu] = Some(Duration::from_millis(busy * 1000 / ticks));
    }
    times
}

/// The busy time of `cpus` together, from [`busy_times`].
fn busy_of(cpus: &[usize]) -> Option<Duration> {
    let times = busy_times()?;
    cpus.iter().map(|&c| times.get(c).copied().flatten()).sum()
}

/// The CPU time the calling thread has used.
pub(crate) fn thread_time() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// How long the calling thread has waited on a run queue, ready to run.
fn thread_waited() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = stat.split_ascii_whitespace().nth(1)?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// The CPUs the calling thread may run on.
pub fn own_cpus() -> Vec<usize> {
    match sched_getaffinity(None) {
        Ok(set) => (0..CpuSet::MAX_CPU).filter(|&c| set.is_set(c)).collect(),
        Err(_) => Vec::new(),
    }
}

/// The wall-clock guard of one game, served by the thread that made it:
/// the wall limit from `start`, plus what others took on that thread's
/// CPUs (where the game runs) since.
pub struct Guard {
    start: Instant,
    wall: Duration,
    cpus: Vec<usize>,
    busy_before: Option<Duration>,
    evaluator_before: Duration,
    evaluator_waited_before: Option<Duration>,
    /// The game's own CPU time, once its cgroup is known.
    meter: Option<CpuMeter>,
    /// The most its threads were seen to have waited for a CPU.
    waited: std::cell::Cell<Duration>,
    /// The CPUs' busy time and the serving thread's CPU time when the game
    /// ended, once [`Guard::end`] is called: what others took after that
    /// (the jail's teardown, the kernel freeing its namespaces) is the
    /// judge's own work, not load beside the game.
    ended: std::cell::Cell<Option<(Option<Duration>, Duration)>>,
    /// The threads reading the program's output, with their CPU time when
    /// counted from: the judge's work, as the serving thread's is.
    drains: Vec<(crate::process::DrainTime, Duration)>,
}

impl Guard {
    /// A guard of `wall` from `start` (now or just before).
    pub fn new(start: Instant, wall: Duration) -> Guard {
        let cpus = own_cpus();
        Guard {
            start,
            wall,
            busy_before: busy_of(&cpus),
            cpus,
            evaluator_before: thread_time(),
            evaluator_waited_before: thread_waited(),
            meter: None,
            waited: std::cell::Cell::new(Duration::ZERO),
            ended: std::cell::Cell::new(None),
            drains: Vec::new(),
        }
    }

    /// Counts the CPU time of `drains` (the threads reading the game's
    /// output) from now on as the judge's own work, not others' load.
    pub fn count_as_judge(&mut self, drains: Vec<crate::process::DrainTime>) {
        self.drains.extend(drains.into_iter().map(|d| {
            let before = d.get();
            (d, before)
        }));
    }

    /// The CPU time the judge took for this game since the start: the
    /// serving thread's and its output readers'.
    fn judge_time(&self) -> Duration {
        let drains: Duration = self
            .drains
            .iter()
            .map(|(d, before)| d.get().saturating_sub(*before))
            .sum();
        thread_time().saturating_sub(self.evaluator_before) + drains
    }

    /// Marks the game's end (when its wall-clock time is taken): from now
    /// on [`Guard::others`] counts only what others took until this call.
    pub fn end(&self) {
        self.ended
            .set(Some((busy_of(&self.cpus), self.judge_time())));
    }

    /// Reads the game's own CPU time from `meter` from now on (without
    /// one, while the game runs its own time counts as others', which
    /// only a game held by `RLIMIT_CPU` has, so at most its CPU limit).
    pub fn measure_game_by(&mut self, meter: Option<CpuMeter>) {
        self.meter = meter;
    }

    /// The CPU time others took on the game's CPUs since the start (until
    /// [`Guard::end`], once called), the game having used `own`; `None`
    /// where `/proc/stat` cannot be read.
    pub fn others(&self, own: Duration) -> Option<Duration> {
        let (busy_now, evaluator) = self
            .ended
            .get()
            .unwrap_or_else(|| (busy_of(&self.cpus), self.judge_time()));
        let busy = busy_now?.saturating_sub(self.busy_before?);
        Some(busy.saturating_sub(own).saturating_sub(evaluator))
    }

    /// When the game is stopped now: the wall limit after the start, plus
    /// what others took so far, at most what the game's threads and the
    /// calling (serving) thread waited for a CPU where that is known (and
    /// [`MOST_EXTENSION`] times the limit).
    pub fn deadline(&self) -> Instant {
        let own = self.meter.as_ref().and_then(CpuMeter::read);
        let mut extension = self.others(own.unwrap_or_default()).unwrap_or_default();
        if let Some(waits) = self.meter.as_ref().and_then(CpuMeter::waits) {
            let waited = match self.cpus.len() {
                1 => stalled(waits, own.unwrap_or_default()),
                _ => waits.summed,
            };
            // Threads that ended take their waits with them: the most seen.
            self.waited.set(self.waited.get().max(waited));
            let evaluator = thread_waited()
                .zip(self.evaluator_waited_before)
                .map_or(Duration::ZERO, |(now, before)| now.saturating_sub(before));
            extension = extension.min(self.waited.get() + evaluator);
        }
        self.start + self.wall + extension.min(self.wall * MOST_EXTENSION)
    }

    /// The deadline with nothing taken by others yet.
    pub fn first_deadline(&self) -> Instant {
        self.start + self.wall
    }
}

/// How long a game on one CPU surely waited for it, none of its threads
/// running, its threads' `waits` read after it had used `own` CPU time:
/// their summed waits count a thread waiting while a sibling runs, and
/// threads waiting at once each (60 threads waking together every 40 ms
/// piled up more waiting than wall time, and held a game that used 0.56 s
/// of CPU for 10 s, its guard's most); but while a thread was ready its
/// game was ready, and on one CPU a game that was ready and not running
/// waited. So the game waited at least the longest one thread was ready
/// less what the game ran: exactly a thread's wait for a game of one
/// thread, and every thread's shared wait for threads all ready at once.
fn stalled(waits: Waits, own: Duration) -> Duration {
    waits.summed.min(waits.longest_ready.saturating_sub(own))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_waited_no_longer_than_its_longest_ready_thread_less_what_it_ran() {
        let ms = Duration::from_millis;
        // One thread, ready 900 ms, of which it ran 300: it waited 600.
        let one = Waits {
            summed: ms(600),
            longest_ready: ms(900),
        };
        assert_eq!(stalled(one, ms(300)), ms(600));
        // 60 threads each ready a few ms at a time, together: their waits
        // add up past the wall time, but no thread was ready for long.
        let burst = Waits {
            summed: ms(10_000),
            longest_ready: ms(700),
        };
        assert_eq!(stalled(burst, ms(560)), ms(140));
        // Two threads of one game ready all along (1 s), on a CPU shared
        // with nothing: each waited while the other ran, the game never.
        let pair = Waits {
            summed: ms(1000),
            longest_ready: ms(1000),
        };
        assert_eq!(stalled(pair, ms(1000)), Duration::ZERO);
    }

    #[test]
    fn the_line_of_all_cpus_together_is_no_cpu() {
        // The layout of proc(5): the total line first, then one per CPU.
        let text = "cpu  10132153 290696 3084719 46828483 16683 0 25195 0 175628 0\n\
                    cpu0 1393280 32966 572056 13343292 6130 0 17875 0 23933 0\n\
                    cpu1 200 0 100 5000 7 3 2 1 0 0\n\
                    intr 1462898\nctxt 115315\nbtime 769041601\nprocesses 86031\n";
        let times = busy_times_in(text, 100);
        // Two CPUs, not ten million slots for the total's user time.
        assert_eq!(times.len(), 2, "{} entries", times.len());
        // cpu0: 1393280 + 32966 + 572056 + 0 + 17875 + 0 ticks of 10 ms.
        assert_eq!(times[0], Some(Duration::from_millis(20_161_770)));
        // cpu1: 200 + 0 + 100 + 3 + 2 + 1 ticks.
        assert_eq!(times[1], Some(Duration::from_millis(3_060)));
    }

    #[test]
    fn every_cpu_of_this_thread_has_a_busy_time_that_grows_with_work() {
        let times = busy_times().expect("/proc/stat");
        for cpu in own_cpus() {
            assert!(times.get(cpu).copied().flatten().is_some(), "cpu{cpu}");
        }
        // Half a second of this thread's work on its CPUs shows in their
        // busy time (ticks of 10 ms; others may add, never take away).
        let cpus = own_cpus();
        let before = busy_of(&cpus).unwrap();
        let start = thread_time();
        while thread_time() - start < Duration::from_millis(500) {
            std::hint::black_box(0u64);
        }
        let busy = busy_of(&cpus).unwrap() - before;
        assert!(busy >= Duration::from_millis(450), "{busy:?}");
    }

    #[test]
    fn the_evaluators_own_work_extends_no_guard() {
        // This thread's work is the evaluator's, not others': on its one
        // CPU, others took at most what this thread did not use of the
        // wall time passed (a tick of slack each way for the sampling).
        on_one_cpu(|| {
            let start = Instant::now();
            let guard = Guard::new(start, Duration::from_secs(1));
            let began = thread_time();
            while thread_time() - began < Duration::from_millis(300) {
                std::hint::black_box(0u64);
            }
            let others = guard.others(Duration::ZERO).unwrap();
            let passed = start.elapsed();
            assert!(
                others <= passed.saturating_sub(Duration::from_millis(280)),
                "{others:?} of {passed:?}"
            );
        });
    }

    /// Runs `test` on a thread pinned to one CPU of this one's (threads it
    /// starts inherit the pin), and fails as it fails.
    fn on_one_cpu(test: impl FnOnce() + Send + 'static) {
        std::thread::spawn(|| {
            let _pinned = crate::affinity::Pinned::to_cpu(own_cpus()[0]).unwrap();
            test();
        })
        .join()
        .unwrap();
    }

    #[test]
    fn reading_a_games_output_extends_no_guard() {
        // A game that writes without end makes the evaluator's reader work
        // on its CPU: that is the judge's work too. On one CPU, others took
        // at most what this thread (the writer here) and the reader did not
        // use of the wall time passed, with a few ticks of slack; counted
        // as others, the reader's time (about 0.3 s here) would cross it.
        on_one_cpu(|| {
            use std::io::Write;
            let start = Instant::now();
            let mut guard = Guard::new(start, Duration::from_secs(1));
            let (read, write) = rustix::pipe::pipe().unwrap();
            let (output, reader) = crate::process::drain(std::fs::File::from(read));
            guard.count_as_judge(vec![reader.clone()]);
            let mut write = std::fs::File::from(write);
            let began = thread_time();
            while thread_time() - began < Duration::from_millis(300) {
                write.write_all(&[b'x'; 4096]).unwrap();
            }
            drop(write);
            output.recv().unwrap();
            let judged = thread_time() - began + reader.get();
            let others = guard.others(Duration::ZERO).unwrap();
            let passed = start.elapsed();
            assert!(reader.get() >= Duration::from_millis(20), "{reader:?}");
            assert!(
                others <= (passed + Duration::from_millis(30)).saturating_sub(judged),
                "{others:?} of {passed:?}, {judged:?} the judge's (reader {reader:?})"
            );
        });
    }
}
