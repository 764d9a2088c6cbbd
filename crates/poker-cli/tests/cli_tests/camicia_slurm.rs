//! A Camicia search on a real single-node Slurm cluster: this test starts
//! munged, slurmctld and slurmd in a scratch folder (owning Slurm's ports
//! 6817 and 6818), submits a job array with the shipped batch script
//! contrib/slurm/camicia-search.sbatch, preempts one task once its
//! checkpoint exists (`scancel --full -s TERM`, then `scontrol requeue`),
//! waits, merges the units and checks the merge against one single-process
//! run over the whole range. It stops its daemons by pid.
//!
//! It needs root (slurmd starts jobs) and Debian's packages `slurmctld
//! slurmd slurm-client munge`: the Slurm tier of `common::tier`.

use crate::common;
use crate::common::tier::{self, needs};
use serde_json::Value;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A range around the published non-terminating game (index
/// 472460898658889399111), so the units find loops and cycles too.
const RANGE: (u128, u128) = (472460898658880000000, 472460898658900000000);
const UNITS: u32 = 4;
/// The task preempted.
const VICTIM: u32 = 1;

/// Where `tool` is (`PATH`, then /usr/sbin and /sbin, where Debian puts
/// the daemons).
fn find(tool: &str) -> Option<PathBuf> {
    common::tier::locate(tool)
}

/// The daemons this test started, stopped by pid (TERM, then KILL) when
/// it ends, pass or fail; and its job, cancelled first.
struct Cluster {
    dir: PathBuf,
    daemons: Vec<(&'static str, Child)>,
    job: Option<String>,
}

impl Cluster {
    fn command(&self, tool: &str) -> Command {
        let mut c = Command::new(find(tool).unwrap());
        c.env("SLURM_CONF", self.dir.join("slurm.conf"));
        c
    }

    /// Runs a client command; its stdout, or a panic with its stderr.
    fn client(&self, tool: &str, args: &[&str]) -> String {
        let out = self.command(tool).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{tool} {args:?}: {}{}",
            String::from_utf8_lossy(&out.stderr),
            self.logs()
        );
        String::from_utf8(out.stdout).unwrap()
    }

    fn spawn(&mut self, name: &'static str, command: &mut Command) {
        let log = std::fs::File::create(self.dir.join(format!("{name}.out"))).unwrap();
        let child = command
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        self.daemons.push((name, child));
    }

    fn logs(&self) -> String {
        let mut text = String::new();
        for name in [
            "munged.log",
            "slurmctld.log",
            "slurmd.log",
            "slurmctld.out",
            "slurmd.out",
        ] {
            let log = std::fs::read_to_string(self.dir.join(name)).unwrap_or_default();
            let tail: Vec<&str> = log.lines().rev().take(15).collect();
            text += &format!("\n--- {name} (last lines)\n");
            for line in tail.into_iter().rev() {
                text += line;
                text.push('\n');
            }
        }
        text
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if let Some(job) = &self.job {
            let _ = self
                .command("scancel")
                .args(["--full", "-s", "KILL", job])
                .output();
            std::thread::sleep(Duration::from_millis(300));
        }
        for (_, child) in self.daemons.iter_mut().rev() {
            let pid = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
            let deadline = Instant::now() + Duration::from_secs(10);
            while child.try_wait().ok().flatten().is_none() {
                if Instant::now() > deadline {
                    let _ = child.kill();
                    let _ = child.wait();
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
}

fn wait_for(what: &str, timeout: Duration, mut ready: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if ready() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    eprintln!("timed out waiting for {what}");
    false
}

fn short_hostname() -> String {
    let out = Command::new("hostname").arg("-s").output().unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// Starts munged, slurmctld and slurmd in `dir`.
fn start(dir: &Path) -> Cluster {
    for port in [6817, 6818] {
        if let Err(e) = TcpListener::bind(("0.0.0.0", port)) {
            panic!("port {port} is taken ({e}): is another Slurm running here?");
        }
    }
    let _ = std::fs::remove_dir_all(dir);
    for sub in ["munge", "state", "spool", "work"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let key = dir.join("munge/munge.key");
    let bytes: Vec<u8> = (0..1024).map(|_| rand::random::<u8>()).collect();
    std::fs::write(&key, bytes).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o400)).unwrap();
    let socket = dir.join("munge/munge.socket");
    let host = short_hostname();
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let d = dir.display();
    // cred_expire=5: a requeued job may start again after 5 s, not 120.
    let conf = format!(
        "ClusterName=poker-test\nSlurmctldHost={host}\nSlurmctldPort=6817\nSlurmdPort=6818\n\
         SlurmUser=root\nSlurmdUser=root\nAuthType=auth/munge\nCredType=cred/munge\n\
         AuthInfo=socket={s},cred_expire=5\n\
         StateSaveLocation={d}/state\nSlurmdSpoolDir={d}/spool\n\
         SlurmctldPidFile={d}/slurmctld.pid\nSlurmdPidFile={d}/slurmd.pid\n\
         SlurmctldLogFile={d}/slurmctld.log\nSlurmdLogFile={d}/slurmd.log\n\
         ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nSelectType=select/cons_tres\n\
         SelectTypeParameters=CR_Core\n\
         SchedulerType=sched/backfill\nMpiDefault=none\nReturnToService=2\nJobRequeue=1\n\
         AccountingStorageType=accounting_storage/none\nJobCompType=jobcomp/none\n\
         JobAcctGatherType=jobacct_gather/none\n\
         NodeName={host} CPUs={cpus} State=UNKNOWN\n\
         PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n",
        s = socket.display()
    );
    std::fs::write(dir.join("slurm.conf"), conf).unwrap();
    let mut cluster = Cluster {
        dir: dir.to_path_buf(),
        daemons: Vec::new(),
        job: None,
    };
    let munge_dir = dir.join("munge");
    cluster.spawn(
        "munged",
        Command::new(find("munged").unwrap())
            .arg("--foreground")
            .arg("--force")
            .arg(format!("--socket={}", socket.display()))
            .arg(format!("--key-file={}", key.display()))
            .arg(format!("--log-file={}/munged.log", d))
            .arg(format!("--pid-file={}/munged.pid", munge_dir.display()))
            .arg(format!("--seed-file={}/munged.seed", munge_dir.display())),
    );
    assert!(
        wait_for("munged's socket", Duration::from_secs(10), || socket
            .exists()),
        "munged did not start{}",
        cluster.logs()
    );
    let conf = dir.join("slurm.conf");
    let mut slurmctld = cluster.command("slurmctld");
    slurmctld.arg("-D").arg("-f").arg(&conf);
    cluster.spawn("slurmctld", &mut slurmctld);
    let mut slurmd = cluster.command("slurmd");
    slurmd.arg("-D").arg("-f").arg(&conf);
    cluster.spawn("slurmd", &mut slurmd);
    let idle = wait_for("the node to be idle", Duration::from_secs(30), || {
        cluster
            .command("sinfo")
            .args(["-h", "-o", "%T"])
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "idle")
    });
    assert!(idle, "the Slurm node did not come up{}", cluster.logs());
    cluster
}

fn poker() -> &'static str {
    env!("CARGO_BIN_EXE_poker")
}

/// `poker camicia merge --json` of `files`.
fn merge(files: &[PathBuf]) -> Value {
    let out = Command::new(poker())
        .args(["camicia", "merge", "--json"])
        .args(files)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "merge failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_job_array_with_a_preempted_task_merges_to_the_single_process_result() {
    needs!(tier::SLURM);
    let began = Instant::now();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("slurm");
    let mut cluster = start(&dir);
    let work = dir.join("work");
    let script = crate::common::root().join("contrib/slurm/camicia-search.sbatch");
    let range = format!("{}..{}", RANGE.0, RANGE.1);
    let job = cluster
        .client(
            "sbatch",
            &[
                "--parsable",
                &format!("--array=0-{}", UNITS - 1),
                &format!("--chdir={}", work.display()),
                &format!(
                    "--export=ALL,CAMICIA_RANGE={range},CAMICIA_UNITS={UNITS},\
                     CAMICIA_CHECKPOINT_EVERY=0,POKER={}",
                    poker()
                ),
                script.to_str().unwrap(),
            ],
        )
        .trim()
        .to_string();
    cluster.job = Some(job.clone());
    let units = work.join("units");
    let checkpoint = units.join(format!("unit-{VICTIM}.checkpoint"));
    let result = |i: u32| units.join(format!("unit-{i}.json"));
    assert!(
        wait_for("the checkpoint", Duration::from_secs(120), || checkpoint
            .exists()),
        "task {VICTIM} wrote no checkpoint{}",
        cluster.logs()
    );
    assert!(
        !result(VICTIM).exists(),
        "task {VICTIM} finished before it could be preempted"
    );
    let task = format!("{job}_{VICTIM}");
    // scancel signals the batch script and poker, then may go on asking
    // for the job while the script's trap requeues it ("Job can not be
    // altered now"), for many seconds: it runs beside the test, which
    // watches the task instead.
    let mut scancel = cluster
        .command("scancel")
        .args(["--full", "-s", "TERM", &task])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let state = || {
        let out = cluster
            .command("squeue")
            .args(["-h", "-t", "all", "-o", "%T", "-j", &task])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let requeued = |s: &str| s.starts_with("PENDING") || s.starts_with("REQUEUE");
    // Running, then completing (the trap checkpoints and requeues), then
    // pending again; or ended, if nothing requeued it.
    let settled = wait_for("the task to stop", Duration::from_secs(30), || {
        let s = state();
        requeued(&s) || matches!(s.as_str(), "" | "COMPLETED" | "CANCELLED" | "FAILED")
    });
    assert!(
        settled,
        "task {VICTIM} did not stop on TERM: {}{}",
        state(),
        cluster.logs()
    );
    let _ = scancel.kill();
    let _ = scancel.wait();
    // The batch script's trap requeues the task itself; if it did not,
    // requeue it here ("pending execution": it just did).
    if !requeued(&state()) {
        let out = cluster
            .command("scontrol")
            .args(["requeue", &task])
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() || said.contains("pending"),
            "scontrol requeue {task}: {said}"
        );
    }
    let done = wait_for("the job array", Duration::from_secs(150), || {
        cluster
            .command("squeue")
            .args(["-h", "-j", &job])
            .output()
            .is_ok_and(|o| o.status.success() && o.stdout.is_empty())
    });
    assert!(done, "the job array did not finish{}", cluster.logs());
    let log = std::fs::read_to_string(work.join(format!("camicia-{job}_{VICTIM}.out"))).unwrap();
    assert!(log.contains("caught TERM"), "{log}");
    assert!(log.contains("resuming from checkpoint"), "{log}");
    assert!(
        !checkpoint.exists(),
        "the finished unit left its checkpoint"
    );
    let files: Vec<PathBuf> = (0..UNITS).map(result).collect();
    let merged = merge(&files);
    eprintln!(
        "Slurm test: the array and its preempted task took {:.1} s",
        began.elapsed().as_secs_f64()
    );

    // One process over the whole range.
    let whole = work.join("whole.json");
    let out = Command::new(poker())
        .args([
            "camicia", "search", "--quiet", "--range", &range, "--output",
        ])
        .arg(&whole)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let single = merge(&[whole]);
    for field in [
        "start",
        "end",
        "top",
        "counts",
        "checksum",
        "lengths",
        "best",
        "loops",
        "cycles",
        "cycle_stats",
    ] {
        assert_eq!(merged[field], single[field], "{field}");
    }
    assert_eq!(merged["units"], UNITS);
    assert_eq!(merged["counts"]["deals"], (RANGE.1 - RANGE.0) as u64);
    // The published loop is in the range, with its 62-trick cycle.
    let loops = merged["loops"].as_array().unwrap();
    let published = loops
        .iter()
        .find(|g| g["index"] == "472460898658889399111")
        .expect("the published loop");
    assert_eq!(published["cycle"]["tricks"], 62);
    eprintln!(
        "Slurm test: {} s in all",
        began.elapsed().as_secs_f64().round()
    );
}
