//! Benchmark (not a test): exhaustive checking of 4-thread IRIW-shaped tests
//! under all four models — enumeration of every candidate execution and the
//! four consistency checks, explanations included. Prints the median of many
//! runs per test.
//!
//! ```text
//! cargo run -q --release -p demos --example litmus_bench
//! ```

use demos::memory::litmus::{catalogue::find, parse, Analysis};
use std::time::{Duration, Instant};

const RUNS: usize = 101;

fn median(test: &demos::memory::litmus::Test) -> (Duration, u64) {
    let mut times = Vec::with_capacity(RUNS);
    let mut candidates = 0;
    for _ in 0..RUNS {
        let start = Instant::now();
        let a = Analysis::of(test).expect("catalogue tests are within the limits");
        times.push(start.elapsed());
        candidates = a.candidates;
    }
    times.sort();
    (times[RUNS / 2], candidates)
}

fn main() {
    // IRIW with two stores per writer and three loads per reader.
    let wide = "name IRIW+2W\nthread W x 1; W x 2\nthread R x r1; R y r2; R x r3\nthread W y 1; W y 2\nthread R y r4; R x r5; R y r6\nexists r1=1 /\\ r2=0 /\\ r4=1 /\\ r5=0\n";
    let tests = [
        parse(find("IRIW").unwrap().text).unwrap(),
        parse(find("IRIW+sc").unwrap().text).unwrap(),
        parse(wide).unwrap(),
    ];
    for t in &tests {
        let (m, candidates) = median(t);
        println!(
            "{:<10} {:>6} candidates  median {} µs over {RUNS} runs",
            t.name,
            candidates,
            m.as_micros()
        );
    }
}
