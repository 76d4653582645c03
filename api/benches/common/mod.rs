//! What the benches read of a process from `/proc`.

use std::process::Command;

/// A process's CPU time so far, user and system over all its threads, in seconds: fields 14
/// and 15 of `/proc/PID/stat`, in clock ticks (`getconf CLK_TCK`). Panics when it cannot be
/// read: a bench that printed no CPU time as zero would mislead.
pub fn cpu_seconds(pid: u32) -> f64 {
    read_cpu_seconds(pid).expect("the process's CPU time from /proc")
}

fn read_cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces: count the fields after its closing ')'.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    let hz: f64 = String::from_utf8(Command::new("getconf").arg("CLK_TCK").output().ok()?.stdout)
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some(ticks / hz)
}

/// How many times a process's threads have been switched out so far, waiting or preempted
/// (`voluntary_ctxt_switches` and `nonvoluntary_ctxt_switches` over `/proc/PID/task/*/status`;
/// a thread that has ended no longer counts). Panics when it cannot be read.
#[allow(dead_code, reason = "not every bench counts them")]
pub fn context_switches(pid: u32) -> u64 {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).expect("the process's threads");
    tasks
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("status")).ok())
        .flat_map(|status| {
            status
                .lines()
                .filter(|l| l.contains("ctxt_switches:"))
                .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
                .collect::<Vec<_>>()
        })
        .sum()
}
