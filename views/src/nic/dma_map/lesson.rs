//! DMA mapping's lesson: map before the NIC writes, the IOTLB that per-frame
//! mapping keeps cold, what lazy unmapping saves, and the late write it lets
//! through. Every answer is read off the model after the steps or the
//! access the question asks about.

use crate::lesson::{after, at, Ask, Lesson, Question, Stop, Task};
use demos::nic::dma_map::{DmaMap, DmaMapAction, Fate};
use demos::Model;

use DmaMapAction::{DeviceWrite, Map, Unmap};

/// Frames the counting questions run to.
const FRAMES: u32 = 8;

/// Where a late device write goes, in the order of [`Fate`]'s outcomes.
const WHERE: &[&str] = &[
    "into the old page, which another task now owns",
    "nowhere: the IOMMU blocks it and logs a fault",
    "into a new buffer mapped again at that IOVA",
];

/// Four buffers mapped, one frame received and its buffer unmapped.
const FIRST_UNMAP: &[DmaMapAction] = &[Map, Map, Map, Map, DeviceWrite, Unmap];

/// Two more frames through the ring after the first unmap.
const THREE_UNMAPS: &[DmaMapAction] = &[
    Map,
    Map,
    Map,
    Map,
    DeviceWrite,
    Unmap,
    Map,
    DeviceWrite,
    Unmap,
    Map,
    DeviceWrite,
    Unmap,
];

/// `m` stepped as Step does until `done` holds or the run is over, and the
/// model's account of it.
fn run(m: &DmaMap, done: fn(&DmaMap) -> bool) -> (DmaMap, String) {
    let mut next = m.clone();
    while !done(&next) {
        let Ok(action) = next.next_auto() else { break };
        if next.apply(&action).is_err() {
            break;
        }
    }
    let said = next.why().join(" ");
    (next, said)
}

fn received(m: &DmaMap) -> bool {
    m.counters.frames >= FRAMES
}

fn received_and_unmapped(m: &DmaMap) -> bool {
    m.counters.frames >= FRAMES && m.counters.unmaps >= FRAMES
}

fn late_write(m: &DmaMap) -> (DmaMap, String) {
    after(m, DmaMapAction::StaleDma)
}

pub fn lesson() -> Lesson<DmaMap> {
    Lesson {
        goal: "After this you can explain why a driver maps a buffer before the NIC may write it, what unmapping per frame costs the IOMMU, and what lazy invalidation leaves open.",
        stops: vec![
            Stop {
                title: "Mapping a buffer",
                text: "Behind an IOMMU the NIC knows only IOVAs. Before it may write an RX buffer, dma_map_single() gives the buffer's page an IOVA and adds that translation to the IOMMU's page table.",
                state: at(&[]),
                focus: "ring",
                task: Some(Task {
                    ask: "Map a buffer, then let the NIC receive a frame into it.",
                    done: |m| m.counters.frames > 0,
                    witness: || vec![Map, DeviceWrite],
                }),
                question: None,
            },
            Stop {
                title: "The IOTLB",
                text: "The IOMMU caches translations in its IOTLB, as a CPU caches them in its TLB. A miss costs a walk of the page table before the write can land.",
                state: at(&[Map, DeviceWrite]),
                focus: "iotlb",
                task: None,
                question: Some(Question {
                    ask: "Step until the NIC has received 8 frames. How many IOTLB misses will those 8 frames have cost in all?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| f64::from(run(m, received).0.counters.misses),
                    },
                    explain: |m| run(m, received).1,
                    contrast: |c| c.recycle = true,
                }),
            },
            Stop {
                title: "Unmapping, lazily",
                text: "dma_unmap_single() removes the page-table entry and the page goes back to the kernel. In lazy mode the IOTLB is not invalidated yet: the IOVA waits in a flush queue, and its old translation stays cached.",
                state: at(FIRST_UNMAP),
                focus: "iotlb",
                task: None,
                question: Some(Question {
                    ask: "Step until 8 frames have been received and unmapped. How many IOTLB invalidations will the CPU have waited for?",
                    kind: Ask::Number {
                        unit: "",
                        decimals: 0,
                        tolerance: 0.0,
                        answer: |m| f64::from(run(m, received_and_unmapped).0.counters.invalidations),
                    },
                    explain: |m| run(m, received_and_unmapped).1,
                    contrast: |c| c.strict = true,
                }),
            },
            Stop {
                title: "Break it: a late write",
                text: "A device with a bug, or a hostile one, writes again to a buffer the driver has already unmapped. Its page now belongs to someone else.",
                state: at(THREE_UNMAPS),
                focus: "iotlb",
                task: Some(Task {
                    ask: "In Break it, have the device write to the last unmapped IOVA.",
                    done: |m| m.counters.stale_dmas > 0,
                    witness: || vec![DmaMapAction::StaleDma],
                }),
                question: Some(Question {
                    ask: "The device writes to the IOVA the driver unmapped last. Where does the write go?",
                    kind: Ask::Choice {
                        options: WHERE,
                        right: |m| {
                            let fate = late_write(m).0.last.map(|a| a.fate);
                            vec![match fate {
                                Some(Fate::StaleHit) => 0,
                                Some(Fate::Fault) | None => 1,
                                Some(Fate::Hit | Fate::Miss) => 2,
                            }]
                        },
                    },
                    explain: |m| late_write(m).1,
                    contrast: |c| c.strict = true,
                }),
            },
            Stop {
                title: "Closing the window",
                text: "Lazy mode trades that window for speed: one invalidation covers every queued IOVA, and only then may the IOVAs be reused. Linux does not use lazy mode for devices it marks untrusted.",
                state: at(&[THREE_UNMAPS, &[DmaMapAction::StaleDma]].concat()),
                focus: "fault-log",
                task: Some(Task {
                    ask: "Let the flush timer fire, then have the device write to the unmapped IOVA again.",
                    done: |m| m.counters.faults > 0,
                    witness: || vec![DmaMapAction::FlushTimer, DmaMapAction::StaleDma],
                }),
                question: None,
            },
        ],
        next: &["/nic/iommu", "/nic/descriptor-ring"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::nic::dma_map::DmaMapConfig;

    /// The right answers at each question, with one change to the stops'
    /// configuration.
    fn answers(change: fn(&mut DmaMapConfig)) -> Vec<String> {
        crate::lesson::answers(&lesson(), |_, s| change(s))
            .into_iter()
            .map(|a| a.concat())
            .collect()
    }

    #[test]
    fn the_answers_are_the_iommus() {
        // Per frame and lazy: the ring misses once, every new buffer misses;
        // no unmap waits for an invalidation; the late write hits the stale
        // entry and lands in a page another task owns.
        assert_eq!(
            answers(|_| {}),
            ["9", "0", "into the old page, which another task now owns"]
        );
        // Recycling: the ring and four pages miss once each. Strict: one
        // invalidation per unmap, and the late write is blocked.
        assert_eq!(answers(|c| c.recycle = true)[0], "5");
        let strict = answers(|c| c.strict = true);
        assert_eq!(strict[1], "8");
        assert_eq!(strict[2], "nowhere: the IOMMU blocks it and logs a fault");
    }
}
