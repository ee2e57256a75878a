//! The IOMMU's lesson: a device's DMA address translated page by page, the
//! permission each entry grants, the fault record a blocked DMA leaves, and
//! what passthrough gives up. Every answer is read off the model after the
//! DMA the question asks about.
//!
//! `IommuConfig` has nothing to configure (the mappings and the Break-it
//! switch are actions), so each question's contrast changes the stop's
//! actions: a mapping left out or added, a permission granted, translation
//! left on.

use crate::lesson::{after, at, Ask, Lesson, Question, Stop, Task};
use demos::nic::iommu::{parse_addr, region_at, Access, Iommu, IommuAction, Verdict, RX_IOVA};

/// The choices for "where does the write land".
const LANDS: &[&str] = &[
    "0x1234: the address the device used",
    "0x4000: the start of the RX buffer",
    "0x4234",
    "nowhere: the IOMMU blocks it",
];
/// The physical addresses [`LANDS`] names, in its order.
const LAND_PA: &[u64] = &[0x1234, 0x4000, 0x4234];
/// The choices for "what does the kernel log", by the VT-d fault reason.
const LOGS: &[&str] = &[
    "nothing: the write is allowed",
    "fault reason 0x04: Access beyond MGAW",
    "fault reason 0x05: PTE Write access is not set",
    "fault reason 0x06: PTE Read access is not set",
];
/// The reason codes [`LOGS`] names, from its second choice on.
const LOG_CODES: &[u8] = &[0x04, 0x05, 0x06];
/// The choices for "which address does the fault line print".
const FAULT_ADDRS: &[&str] = &[
    "0x5678: the address the device used",
    "0x5000: the page it falls in",
    "none: the write is allowed, so nothing is logged",
];
/// The choices for "what does the stray write hit", by region.
const HITS: &[&str] = &[
    "nothing: the IOMMU blocks it",
    "the RX buffer",
    "the kernel's page tables",
    "the kernel text",
];
/// The regions [`HITS`] names, from its second choice on.
const HIT_KEYS: &[&str] = &["rx", "ptables", "ktext"];

/// The page the read-only stop maps, the process page behind it, and the
/// address the fault-record stop writes to.
const RO_IOVA: &str = "0x3000";
const RO_VADDR: &str = "0x7fa0_2000";
const UNMAPPED: &str = "0x5678";
/// The stray address of the Break-it stop, and the one its task aims at.
const STRAY: &str = "0xf000";
const CRED: &str = "0x3000";

fn write_to(addr: &str) -> IommuAction {
    IommuAction::Dma {
        access: Access::Write,
        addr: addr.into(),
    }
}

fn map(iova: &str, vaddr: &str, read: bool, write: bool) -> IommuAction {
    IommuAction::Map {
        iova: iova.into(),
        vaddr: vaddr.into(),
        read,
        write,
    }
}

/// What became of a write to `addr` at `m`.
fn verdict(m: &Iommu, addr: &str) -> Option<Verdict> {
    after(m, write_to(addr)).0.last.map(|r| r.verdict)
}

/// Where a write to `addr` lands, as an index into [`LANDS`].
fn lands(m: &Iommu, addr: &str) -> Vec<usize> {
    match verdict(m, addr) {
        Some(Verdict::Allowed { pa } | Verdict::Unchecked { pa }) => {
            LAND_PA.iter().position(|&p| p == pa).into_iter().collect()
        }
        _ => vec![LAND_PA.len()],
    }
}

/// What the kernel logs for a write to `addr`, as an index into [`LOGS`].
fn logged(m: &Iommu, addr: &str) -> Vec<usize> {
    match verdict(m, addr) {
        Some(Verdict::Blocked(reason)) => LOG_CODES
            .iter()
            .position(|&c| c == reason.code())
            .map(|i| i + 1)
            .into_iter()
            .collect(),
        _ => vec![0],
    }
}

/// The address the kernel's fault line prints for a write to `addr`, as an
/// index into [`FAULT_ADDRS`]: read off the line itself.
fn fault_addr(m: &Iommu, addr: &str) -> Vec<usize> {
    let (next, _) = after(m, write_to(addr));
    let Some(line) = next.last.and_then(|r| r.dmar_line()) else {
        return vec![2];
    };
    let printed = line
        .split("fault addr ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|a| parse_addr(a).ok());
    let used = parse_addr(addr).ok();
    match printed {
        Some(p) if Some(p) == used => vec![0],
        Some(p) if used.is_some_and(|u| p == u & !0xfff) => vec![1],
        _ => vec![],
    }
}

/// What a write to `addr` hits, as an index into [`HITS`].
fn hits(m: &Iommu, addr: &str) -> Vec<usize> {
    match verdict(m, addr) {
        Some(Verdict::Allowed { pa } | Verdict::Unchecked { pa }) => region_at(pa)
            .and_then(|(_, r)| HIT_KEYS.iter().position(|k| *k == r.key))
            .map(|i| i + 1)
            .into_iter()
            .collect(),
        _ => vec![0],
    }
}

pub fn lesson() -> Lesson<Iommu> {
    Lesson {
        goal: "After this you can explain how an IOMMU turns a device's DMA address into a physical one, why a DMA outside the device's mappings faults and what its fault record says, and what passthrough gives up.",
        stops: vec![
            Stop {
                title: "The device's own addresses",
                text: "The NIC does not DMA to physical addresses. It uses I/O virtual addresses (IOVAs), and the IOMMU looks up each page in this device's own table: here one page the device may write, its RX buffer, and one it may read, its TX buffer.",
                state: at(&[]),
                focus: "pte-1000",
                task: Some(Task {
                    ask: "Press Step: the NIC writes a received frame into its RX buffer.",
                    done: |m| m.counters.allowed > 0,
                    witness: || vec![IommuAction::Traffic],
                }),
                question: None,
            },
            Stop {
                title: "Page in, page out, same offset",
                text: "The IOMMU translates a page at a time. It swaps the IOVA's page for the physical page in the entry and keeps the offset within the page.",
                state: at(&[]),
                focus: "pte-1000",
                task: None,
                question: Some(Question {
                    ask: "The device writes at IOVA 0x1234. Where in physical memory do the bytes land?",
                    kind: Ask::Choice {
                        options: LANDS,
                        right: |m| lands(m, "0x1234"),
                    },
                    explain: |m| after(m, write_to("0x1234")).1,
                    // The RX buffer's mapping left out.
                    contrast: |setup| setup.actions.push(IommuAction::Unmap { iova: RX_IOVA }),
                }),
            },
            Stop {
                title: "A page mapped read-only",
                text: "A VFIO user maps its own pages: it names a virtual address, and the kernel pins the page behind it and writes the entry. This entry lets the device read the page, not write it.",
                state: at(&[map(RO_IOVA, RO_VADDR, true, false)]),
                focus: "pte-3000",
                task: None,
                question: Some(Question {
                    ask: "The device writes to IOVA 0x3000. What does the kernel log?",
                    kind: Ask::Choice {
                        options: LOGS,
                        right: |m| logged(m, RO_IOVA),
                    },
                    explain: |m| after(m, write_to(RO_IOVA)).1,
                    // The same page mapped READ|WRITE.
                    contrast: |setup| setup.actions[0] = map(RO_IOVA, RO_VADDR, true, true),
                }),
            },
            Stop {
                title: "What the fault record keeps",
                text: "A blocked DMA reaches no memory. The IOMMU records the fault, and the kernel prints it: the device, the direction, the address and the reason.",
                state: at(&[]),
                focus: "fault-log",
                task: None,
                question: Some(Question {
                    ask: "The device writes at IOVA 0x5678, where nothing is mapped. Which address does the kernel's fault line print?",
                    kind: Ask::Choice {
                        options: FAULT_ADDRS,
                        right: |m| fault_addr(m, UNMAPPED),
                    },
                    explain: |m| after(m, write_to(UNMAPPED)).1,
                    // The page mapped for writing.
                    contrast: |setup| setup.actions.push(map("0x5000", "0x7fa0_3000", true, true)),
                }),
            },
            Stop {
                title: "Break it: passthrough",
                text: "In passthrough the IOMMU translates nothing: the device's address is the physical address, and no table limits where it goes. Ordinary traffic still works, because the driver hands the device physical addresses.",
                state: at(&[IommuAction::SetTranslation(false)]),
                focus: "iommu",
                task: Some(Task {
                    ask: "Aim a DMA write at 0x3000 and read the Damage list.",
                    done: |m| m.harmed().any(|(r, t)| r.key == "cred" && t.written > 0),
                    witness: || vec![write_to(CRED)],
                }),
                question: Some(Question {
                    ask: "A driver bug sends a DMA write to 0xf000. What does it hit?",
                    kind: Ask::Choice {
                        options: HITS,
                        right: |m| hits(m, STRAY),
                    },
                    explain: |m| after(m, write_to(STRAY)).1,
                    // Translation left on.
                    contrast: |setup| setup.actions.clear(),
                }),
            },
        ],
        next: &["/nic/dma-map", "/nic/rdma-qp"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers(contrast: bool) -> Vec<Vec<String>> {
        crate::lesson::answers(&lesson(), |q, s| {
            if contrast {
                (q.contrast)(s)
            }
        })
    }

    #[test]
    fn the_answers_are_the_iommus() {
        // 0x1234 is page 0x1000 + 0x234, mapped to PA 0x4000: 0x4234. A
        // write to a READ-only entry is VT-d fault reason 5. The fault
        // record keeps bits 63:12, the page. In passthrough 0xf000 is PA
        // 0xf000, the page tables.
        assert_eq!(
            answers(false),
            [
                vec!["0x4234"],
                vec!["fault reason 0x05: PTE Write access is not set"],
                vec!["0x5000: the page it falls in"],
                vec!["the kernel's page tables"],
            ]
        );
        // Unmapped, the RX page faults; mapped READ|WRITE, the write goes
        // through; mapped, 0x5678 logs nothing; translating, 0xf000 has no
        // entry and is blocked.
        assert_eq!(
            answers(true),
            [
                vec!["nowhere: the IOMMU blocks it"],
                vec!["nothing: the write is allowed"],
                vec!["none: the write is allowed, so nothing is logged"],
                vec!["nothing: the IOMMU blocks it"],
            ]
        );
    }
}
