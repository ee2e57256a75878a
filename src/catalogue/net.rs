//! The Networking, TCP & AI fabric section.

use super::Demo;
use demos::net::allreduce::AllReduce;
use demos::net::congestion::Congestion;
use demos::net::encapsulation::Encapsulation;
use demos::net::handshake::Handshake;
use demos::net::incast::Incast;

pub const DEMOS: &[Demo] = &[
    Demo {
        section: "net",
        slug: "encapsulation",
        title: "TCP encapsulation",
        one_liner: "Step a send() down the stack and watch each header land at its byte offset, checksums exact.",
        open: split_open!(encapsulation: Encapsulation),
    },
    Demo {
        section: "net",
        slug: "handshake",
        title: "TCP handshake and teardown",
        one_liner: "Open and close a connection segment by segment; lose one and watch the timer repair it.",
        open: split_open!(handshake: Handshake),
    },
    Demo {
        section: "net",
        slug: "congestion",
        title: "TCP congestion control",
        one_liner: "Reno, NewReno and CUBIC ACK by ACK through one bottleneck: the sawtooth, fairness and bufferbloat.",
        open: split_open!(congestion: Congestion),
    },
    Demo {
        section: "net",
        slug: "incast",
        title: "TCP incast",
        one_liner: "Many servers answer at once into one shallow port: watch goodput collapse, then fix it.",
        open: split_open!(incast: Incast),
    },
    Demo {
        section: "net",
        slug: "allreduce",
        title: "All-reduce: ring vs tree",
        one_liner: "Sum a vector across GPUs chunk by chunk, and find the message size where the ring beats the tree.",
        open: split_open!(allreduce: AllReduce),
    },
];
