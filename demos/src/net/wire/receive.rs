//! The receiving host's checks, in the order Linux makes them, so that a
//! damaged frame is caught by the same check a real stack would use.
//!
//! NIC: the FCS, then the destination-address filter. Link layer: the
//! EtherType picks the protocol handler. IP (`ip_rcv_core()` in
//! `net/ipv4/ip_input.c`): version and IHL, then the header checksum, then
//! the total length against what arrived, then the padding is trimmed.
//! TCP (`tcp_v4_rcv()` in `net/ipv4/tcp_ipv4.c`): the data offset, then the
//! checksum over the pseudo-header (RFC 9293 §3.1: "the receiver MUST check
//! it", MUST-3), then the port.

use super::checksum::{add, verifies};
use super::crc32::{crc32, RESIDUE};
use super::ethernet::{Mac, ETHERTYPE_IPV4, FCS_LEN, HEADER_LEN as ETH_LEN};
use super::ipv4::{HEADER_LEN as IP_LEN, PROTOCOL_TCP};
use super::tcp::{checksum_ok, HEADER_LEN as TCP_LEN};
use serde::{Deserialize, Serialize};

/// The check that threw a frame away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Check {
    /// The NIC: CRC-32 over the frame does not match its FCS.
    Fcs,
    /// The NIC: the destination MAC is not this host's.
    MacFilter,
    /// The link layer: the EtherType is not IPv4.
    EtherType,
    /// IP: version not 4, IHL below 5 or beyond the data.
    IpHeader,
    /// IP: the header checksum does not sum to all ones.
    IpChecksum,
    /// IP: the total length disagrees with the bytes that arrived.
    IpLength,
    /// IP: the datagram is addressed to another host, or is not TCP.
    IpAddress,
    /// IP: the fragments never add up to a whole datagram, so the
    /// reassembly timer throws them away (RFC 791 §3.2).
    Reassembly,
    /// TCP: the data offset is below 5 or beyond the segment.
    TcpHeader,
    /// TCP: the checksum over pseudo-header, header and data fails.
    TcpChecksum,
    /// TCP: no socket on the destination port.
    TcpPort,
}

impl Check {
    /// Who makes the check, and what it found, as a clause for narration.
    pub fn describe(self) -> &'static str {
        match self {
            Check::Fcs => "the receiving NIC's FCS check: the CRC-32 no longer matches",
            Check::MacFilter => {
                "the receiving NIC's address filter: the frame is not addressed to it"
            }
            Check::EtherType => {
                "the link layer: the EtherType is no longer IPv4, so no handler takes it"
            }
            Check::IpHeader => "IP's header check: the version or header length is impossible",
            Check::IpChecksum => "the IPv4 header checksum",
            Check::IpLength => {
                "IP's length check: the total length disagrees with the bytes received"
            }
            Check::IpAddress => "IP: the datagram is not for this host, or not TCP",
            Check::Reassembly => "IP reassembly: the fragments never make a whole datagram",
            Check::TcpHeader => "TCP's header check: the data offset is impossible",
            Check::TcpChecksum => "the TCP checksum (over pseudo-header, header and data)",
            Check::TcpPort => "TCP: no socket listens on that port",
        }
    }

    /// A short name for a status line.
    pub fn label(self) -> &'static str {
        match self {
            Check::Fcs => "FCS",
            Check::MacFilter => "MAC filter",
            Check::EtherType => "EtherType",
            Check::IpHeader => "IP header",
            Check::IpChecksum => "IP checksum",
            Check::IpLength => "IP length",
            Check::IpAddress => "IP address",
            Check::Reassembly => "reassembly",
            Check::TcpHeader => "TCP header",
            Check::TcpChecksum => "TCP checksum",
            Check::TcpPort => "TCP port",
        }
    }

    /// Stable focus key of the part of the picture that catches it.
    pub fn key(self) -> &'static str {
        match self {
            Check::Fcs | Check::MacFilter => "rx-nic",
            Check::EtherType => "rx-link",
            Check::IpHeader
            | Check::IpChecksum
            | Check::IpLength
            | Check::IpAddress
            | Check::Reassembly => "rx-ip",
            Check::TcpHeader | Check::TcpChecksum | Check::TcpPort => "rx-tcp",
        }
    }
}

/// Who the receiver is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Host {
    pub mac: Mac,
    pub ip: [u8; 4],
    pub port: u16,
}

/// NIC and link layer: returns the IPv4 packet (padding still attached).
pub fn link<'a>(wire: &'a [u8], host: &Host) -> Result<&'a [u8], Check> {
    if wire.len() < ETH_LEN + FCS_LEN || crc32(wire) != RESIDUE {
        return Err(Check::Fcs);
    }
    if wire[..6] != host.mac {
        return Err(Check::MacFilter);
    }
    if u16::from_be_bytes([wire[12], wire[13]]) != ETHERTYPE_IPV4 {
        return Err(Check::EtherType);
    }
    Ok(&wire[ETH_LEN..wire.len() - FCS_LEN])
}

/// An IPv4 datagram or fragment that passed IP's checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Datagram<'a> {
    pub src: [u8; 4],
    pub dst: [u8; 4],
    pub id: u16,
    pub more: bool,
    /// Fragment offset in bytes.
    pub offset: usize,
    /// The data after the header, padding trimmed.
    pub data: &'a [u8],
}

/// IP's checks, in `ip_rcv_core()`'s order, then local delivery.
pub fn ip<'a>(packet: &'a [u8], host: &Host) -> Result<Datagram<'a>, Check> {
    if packet.len() < IP_LEN {
        return Err(Check::IpHeader);
    }
    let ihl = usize::from(packet[0] & 0xf) * 4;
    if packet[0] >> 4 != 4 || ihl < IP_LEN || ihl > packet.len() {
        return Err(Check::IpHeader);
    }
    if !verifies(add(0, &packet[..ihl])) {
        return Err(Check::IpChecksum);
    }
    let total = usize::from(u16::from_be_bytes([packet[2], packet[3]]));
    if total > packet.len() || total < ihl {
        return Err(Check::IpLength);
    }
    if packet[16..20] != host.ip || packet[9] != PROTOCOL_TCP {
        return Err(Check::IpAddress);
    }
    let flags = u16::from_be_bytes([packet[6], packet[7]]);
    Ok(Datagram {
        src: [packet[12], packet[13], packet[14], packet[15]],
        dst: [packet[16], packet[17], packet[18], packet[19]],
        id: u16::from_be_bytes([packet[4], packet[5]]),
        more: flags & 0x2000 != 0,
        offset: usize::from(flags & 0x1fff) * 8,
        data: &packet[ihl..total],
    })
}

/// TCP's checks, in `tcp_v4_rcv()`'s order.
pub fn tcp(src: [u8; 4], dst: [u8; 4], segment: &[u8], host: &Host) -> Result<(), Check> {
    if segment.len() < TCP_LEN {
        return Err(Check::TcpHeader);
    }
    let offset = usize::from(segment[12] >> 4) * 4;
    if offset < TCP_LEN || offset > segment.len() {
        return Err(Check::TcpHeader);
    }
    if !checksum_ok(src, dst, segment) {
        return Err(Check::TcpChecksum);
    }
    if u16::from_be_bytes([segment[2], segment[3]]) != host.port {
        return Err(Check::TcpPort);
    }
    Ok(())
}
