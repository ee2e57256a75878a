//! The warp's memory lesson: a coalesced load, a stride, a shifted start,
//! structs of arrays, a shared-memory bank conflict with its padding, then
//! the occupancy a register count allows and the roofline a stride lowers.
//! Every answer is read off the model at the stop or after the change asked.

use crate::lesson::{after, at, at_config, Ask, Lesson, Question, Stop, Task};
use demos::gpu::memory::coalescing::Pattern;
use demos::gpu::memory::{GpuMemory, GpuMemoryAction, GpuMemoryConfig};
use demos::Model;

fn with(pattern: Pattern) -> GpuMemoryConfig {
    GpuMemoryConfig {
        pattern,
        ..GpuMemoryConfig::default()
    }
}

/// A column of a 32-word-wide shared tile: Break it's stride.
fn column_of_tile() -> GpuMemoryConfig {
    GpuMemoryConfig {
        smem_stride: 32,
        ..GpuMemoryConfig::default()
    }
}

/// A kernel of 256-thread blocks whose threads need 64 registers each.
fn register_heavy() -> GpuMemoryConfig {
    GpuMemoryConfig {
        registers: 64,
        ..GpuMemoryConfig::default()
    }
}

fn occupancy_percent(m: &GpuMemory) -> f64 {
    m.occupancy().map_or(0.0, |o| 100.0 * o.ratio())
}

fn attainable(m: &GpuMemory) -> f64 {
    m.config.cap.gpu().attainable(m.intensity())
}

fn why(m: &GpuMemory, i: usize) -> String {
    m.why().get(i).cloned().unwrap_or_default()
}

fn padded(m: &GpuMemory) -> GpuMemory {
    after(m, GpuMemoryAction::SetPadded(true)).0
}

fn efficiency(m: &GpuMemory) -> f64 {
    100.0 * m.access().efficiency()
}

pub fn lesson() -> Lesson<GpuMemory> {
    Lesson {
        goal: "After this you can count the 32-byte sectors a warp's load moves, say what share of them the threads use, find and fix a shared-memory bank conflict, work out which budget limits an SM's occupancy, and place a kernel on its GPU's roofline.",
        stops: vec![
            Stop {
                title: "One warp, one load",
                text: "32 threads each load one float, neighbour after neighbour. The memory system serves the warp in whole 32-byte sectors. Step places each thread's float into its sector.",
                state: at(&[]),
                focus: "sectors",
                task: None,
                question: Some(Question {
                    ask: "How many 32-byte sectors does this warp's load move?",
                    kind: Ask::Number {
                        unit: "sectors",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| m.access().sectors().len() as f64,
                    },
                    explain: |m| why(m, 0),
                    contrast: |c| c.elem = 16,
                }),
            },
            Stop {
                title: "A stride",
                text: "Now each thread reads every 32nd float, as a column of a row-major matrix does. The threads still ask for 128 bytes.",
                state: at_config(with(Pattern::Strided), &[]),
                focus: "sectors",
                task: None,
                question: Some(Question {
                    ask: "What share of the bytes moved did the threads ask for?",
                    kind: Ask::Number {
                        unit: "%",
                        decimals: 1,
                        tolerance: 0.1,
                        answer: efficiency,
                    },
                    explain: |m| why(m, 1),
                    contrast: |c| c.stride = 2,
                }),
            },
            Stop {
                title: "A shifted start",
                text: "The threads read consecutive floats again, but start one float into the array, as the Best Practices Guide's offset copy does.",
                state: at_config(with(Pattern::Offset), &[]),
                focus: "sectors",
                task: None,
                question: Some(Question {
                    ask: "How many sectors does the warp move now?",
                    kind: Ask::Number {
                        unit: "sectors",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| m.access().sectors().len() as f64,
                    },
                    explain: |m| why(m, 1),
                    contrast: |c| c.offset = 8,
                }),
            },
            Stop {
                title: "Structs of arrays",
                text: "Particles are stored as structs of four floats, and a kernel reads one field of each. The table compares that with keeping each field in its own array.",
                state: at_config(with(Pattern::ArrayOfStructs), &[]),
                focus: "patterns",
                task: None,
                question: Some(Question {
                    ask: "How efficient is reading one field from the array of structs?",
                    kind: Ask::Number {
                        unit: "%",
                        decimals: 1,
                        tolerance: 0.1,
                        answer: efficiency,
                    },
                    explain: |m| why(m, 1),
                    contrast: |c| c.fields = 2,
                }),
            },
            Stop {
                title: "Break it: one bank for all",
                text: "In shared memory the warp reads a column of a 32 × 32 float tile: threads 32 words apart, all in bank 0. The banks figure counts the words each bank must serve.",
                state: at_config(column_of_tile(), &[]),
                focus: "banks",
                task: Some(Task {
                    ask: "In Break it, pad each tile row by one word.",
                    done: |m| m.config.padded,
                    witness: || vec![GpuMemoryAction::SetPadded(true)],
                }),
                question: Some(Question {
                    ask: "With the padding, into how many requests is the warp's access split?",
                    kind: Ask::Number {
                        unit: "requests",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| f64::from(padded(m).conflict()),
                    },
                    explain: |m| why(&padded(m), 2),
                    contrast: |c| c.smem_stride = 31,
                }),
            },
            Stop {
                title: "Occupancy: who runs out first",
                text: "An SM holds the warps of several blocks at once, as long as its warp slots, block slots, registers and shared memory last. This kernel's threads need 64 registers each, in blocks of 256 on an A100.",
                state: at_config(register_heavy(), &[]),
                focus: "occupancy",
                task: Some(Task {
                    ask: "In Kernel launch, bring the registers down until the SM's warp slots are full.",
                    done: |m| m.occupancy().is_some_and(|o| o.ratio() >= 1.0),
                    witness: || vec![GpuMemoryAction::SetRegisters(32)],
                }),
                question: Some(Question {
                    ask: "At 64 registers a thread, what share of the SM's warp slots hold a warp?",
                    kind: Ask::Number {
                        unit: "%",
                        decimals: 1,
                        tolerance: 0.1,
                        answer: occupancy_percent,
                    },
                    explain: |m| why(m, 3),
                    contrast: |c| c.registers = 40,
                }),
            },
            Stop {
                title: "The roofline",
                text: "Each float the kernel loads feeds 8 floating-point operations. Loaded with a stride of 32 floats, every float brings its own 32-byte sector, so the kernel does far fewer operations per byte moved. The roofline figure places it.",
                state: at_config(with(Pattern::Strided), &[]),
                focus: "roofline",
                task: None,
                question: Some(Question {
                    ask: "How many TFLOP/s can the strided kernel reach on the A100?",
                    kind: Ask::Number {
                        unit: "TFLOP/s",
                        decimals: 2,
                        tolerance: 0.01,
                        answer: attainable,
                    },
                    explain: |m| why(m, 4),
                    contrast: |c| c.pattern = Pattern::Consecutive,
                }),
            },
        ],
        next: &["/memory/false-sharing", "/cpu/cache-hierarchy"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answers_are_the_warps() {
        // 128 bytes in 4 sectors; a stride of 32 floats, 128 of 1,024
        // bytes; shifted by one float, 5 sectors; one field of 4, 128 of
        // 512; padded from 32 to 33 words apart, one request; 64
        // registers: 2,048 a warp, 8 warps a sub-partition, 4 blocks of 8
        // warps in 64 slots; 8 FLOPs per 32-byte sector is 0.25 FLOP/byte,
        // times 1,555 GB/s.
        assert_eq!(
            crate::lesson::answer_texts(&lesson(), |_| {}),
            [
                "4 sectors",
                "12.5 %",
                "5 sectors",
                "25.0 %",
                "1 requests",
                "50.0 %",
                "0.39 TFLOP/s"
            ]
        );
    }

    #[test]
    fn the_state_at_each_stop_is_the_one_it_describes() {
        let m = GpuMemory::new(&column_of_tile());
        assert_eq!(m.conflict(), 32);
    }
}
