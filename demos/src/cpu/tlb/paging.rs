//! x86-64 4-level paging (Intel SDM Vol. 3A §4.5): a 48-bit linear address
//! is four 9-bit table indices and a 12-bit offset; each table is 512
//! eight-byte entries in one 4 KiB frame; CR3 points at the PML4 table.
//!
//! The page table here is a formula, not an allocator, so every page is
//! mapped and no walk faults. Each table's frame is fixed by the index bits
//! above it:
//! - PML4 table: `CR3` = 0x1000;
//! - PDPT for PML4 index a: 0x10_0000 + a · 4 KiB;
//! - PD for the 18 bits a:b: 0x100_0000 + (a:b) · 4 KiB;
//! - PT for the 27 bits a:b:c: 0x1_0000_0000 + (a:b:c) · 4 KiB;
//! - the 4 KiB page with page number v (36 bits): 2^48 + v · 4 KiB;
//! - with 2 MiB pages, the PDE maps a:b:c to 2^49 + (a:b:c) · 2 MiB.
//!
//! Regions never overlap and all stay below 2^52, the architectural limit of
//! a physical address.

use serde::{Deserialize, Serialize};

pub const CR3: u64 = 0x1000;
pub const PAGE: u64 = 4096;
pub const HUGE_PAGE: u64 = 2 << 20;
const PDPT_BASE: u64 = 0x10_0000;
const PD_BASE: u64 = 0x100_0000;
const PT_BASE: u64 = 0x1_0000_0000;
const FRAME_BASE: u64 = 1 << 48;
const HUGE_FRAME_BASE: u64 = 1 << 49;
/// Entry flags: present, read/write, user (bits 0–2), and PS (bit 7), which
/// makes a PDE map a 2 MiB page (SDM Vol. 3A §4.5, entry-format tables).
pub const FLAGS: u64 = 0b111;
pub const PS: u64 = 1 << 7;
/// Bits 51:12 of an entry: the physical address it points to.
pub const ADDR_MASK: u64 = ((1 << 52) - 1) & !0xfff;

/// The tables of the walk, from the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Table {
    Pml4,
    Pdpt,
    Pd,
    Pt,
}

impl Table {
    pub const ALL: [Table; 4] = [Table::Pml4, Table::Pdpt, Table::Pd, Table::Pt];

    pub fn label(self) -> &'static str {
        match self {
            Table::Pml4 => "PML4",
            Table::Pdpt => "PDPT",
            Table::Pd => "PD",
            Table::Pt => "PT",
        }
    }

    /// The focus key of this table's box: `walk-pml4`, …
    pub fn key(self) -> &'static str {
        match self {
            Table::Pml4 => "walk-pml4",
            Table::Pdpt => "walk-pdpt",
            Table::Pd => "walk-pd",
            Table::Pt => "walk-pt",
        }
    }

    pub fn depth(self) -> usize {
        self as usize
    }

    /// Lowest address bit of this table's index: 39, 30, 21, 12.
    pub fn shift(self) -> u32 {
        39 - 9 * self.depth() as u32
    }
}

/// Is `va` canonical: bits 63:48 all copies of bit 47 (SDM Vol. 1 §3.3.7.1)?
pub fn canonical(va: u64) -> bool {
    let top = va >> 47;
    top == 0 || top == (1 << 17) - 1
}

/// The four 9-bit indices, root first.
pub fn indices(va: u64) -> [u16; 4] {
    Table::ALL.map(|t| ((va >> t.shift()) & 0x1ff) as u16)
}

pub fn offset(va: u64, huge: bool) -> u64 {
    va & if huge { HUGE_PAGE - 1 } else { PAGE - 1 }
}

/// The index bits above `table`: what selects which table of that kind.
fn prefix(va: u64, table: Table) -> u64 {
    (va & ((1 << 48) - 1)) >> (table.shift() + 9)
}

/// Where a table of this kind for `va` lives.
pub fn table_base(va: u64, table: Table) -> u64 {
    match table {
        Table::Pml4 => CR3,
        Table::Pdpt => PDPT_BASE + prefix(va, table) * PAGE,
        Table::Pd => PD_BASE + prefix(va, table) * PAGE,
        Table::Pt => PT_BASE + prefix(va, table) * PAGE,
    }
}

/// The frame a translation ends in, and the physical address.
pub fn translate(va: u64, huge: bool) -> u64 {
    let va48 = va & ((1 << 48) - 1);
    if huge {
        HUGE_FRAME_BASE + (va48 >> 21) * HUGE_PAGE + offset(va, true)
    } else {
        FRAME_BASE + (va48 >> 12) * PAGE + offset(va, false)
    }
}

/// One entry read by the walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WalkStep {
    pub table: Table,
    /// Physical address of the table.
    pub base: u64,
    pub index: u16,
    /// Physical address of the entry: base + 8 · index.
    pub entry_addr: u64,
    /// The entry's value: the next table's (or the page's) address | flags.
    pub entry: u64,
}

/// The entry for `va` in `table`.
pub fn read(va: u64, table: Table, huge: bool) -> WalkStep {
    let base = table_base(va, table);
    let index = indices(va)[table.depth()];
    let entry = match (table, huge) {
        (Table::Pml4, _) => table_base(va, Table::Pdpt) | FLAGS,
        (Table::Pdpt, _) => table_base(va, Table::Pd) | FLAGS,
        (Table::Pd, false) => table_base(va, Table::Pt) | FLAGS,
        (Table::Pd, true) => (translate(va, true) & !(HUGE_PAGE - 1)) | FLAGS | PS,
        (Table::Pt, _) => (translate(va, false) & !(PAGE - 1)) | FLAGS,
    };
    WalkStep {
        table,
        base,
        index,
        entry_addr: base + 8 * u64::from(index),
        entry,
    }
}

/// The reads of a walk that starts at `from` (later than PML4 when the
/// page-walk cache supplied the upper entries). With 2 MiB pages the PD
/// entry is the last: it maps the page itself.
pub fn walk(va: u64, from: Table, huge: bool) -> Vec<WalkStep> {
    let last = if huge { Table::Pd } else { Table::Pt };
    Table::ALL[from.depth()..=last.depth()]
        .iter()
        .map(|&t| read(va, t, huge))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_follow_the_sdm_bit_fields() {
        // 47:39 = 0x0ff, 38:30 = 0x1, 29:21 = 0x2, 20:12 = 0x3, 11:0 = 0x456.
        let va = (0xff << 39) | (1 << 30) | (2 << 21) | (3 << 12) | 0x456;
        assert_eq!(indices(va), [0xff, 1, 2, 3]);
        assert_eq!(offset(va, false), 0x456);
        assert!(canonical(va));
        assert!(canonical(0xffff_8000_0000_0000));
        assert!(!canonical(0x0000_8000_0000_0000));
    }

    #[test]
    fn each_entry_points_at_the_next_table() {
        for huge in [false, true] {
            let va = 0x7f12_3456_789a;
            let steps = walk(va, Table::Pml4, huge);
            assert_eq!(steps.len(), if huge { 3 } else { 4 });
            assert_eq!(steps[0].base, CR3);
            for pair in steps.windows(2) {
                assert_eq!(pair[0].entry & ADDR_MASK, pair[1].base);
            }
            let leaf = steps[steps.len() - 1];
            assert_eq!(leaf.entry & PS != 0, huge);
            assert_eq!(
                (leaf.entry & ADDR_MASK) + offset(va, huge),
                translate(va, huge)
            );
            for s in &steps {
                assert_eq!(s.entry_addr, s.base + 8 * u64::from(s.index));
                assert!(s.entry_addr < 1 << 52 && translate(va, huge) < 1 << 52);
            }
        }
    }

    #[test]
    fn neighbouring_pages_share_upper_tables() {
        let a = walk(0x40_0000, Table::Pml4, false);
        let b = walk(0x40_1000, Table::Pml4, false);
        assert_eq!(a[3].base, b[3].base);
        assert_ne!(a[3].entry, b[3].entry);
    }
}
