/**
 * A classic-BPF seccomp program for bubblewrap's `--seccomp FD`, used for commands that may reach no host:
 * it refuses `socket(AF_UNIX, …)` and `socket(AF_VSOCK, …)` with EPERM (a Unix socket such as Docker's or an
 * SSH agent's, or a VM socket, would reach out of the sandbox past its empty network namespace) and
 * `io_uring_setup` (io_uring can open sockets without the `socket` call), and kills a process that makes a
 * system call under another architecture's numbering. sandbox-runtime applies the same refusals with a
 * helper program it starts inside every sandbox; bubblewrap loading the filter itself saves that start.
 * Layout of `struct seccomp_data`: nr (u32) at 0, arch (u32) at 4, args[0] at 16 (its low half first on
 * these little-endian machines).
 */

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_RET_K = 0x06;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_KILL_PROCESS = 0x80000000;
const SECCOMP_RET_ERRNO_EPERM = 0x00050000 | 1;
const AF_UNIX = 1;
const AF_VSOCK = 40;

/** What differs between the supported machines. */
interface Architecture {
	audit: number;
	socket: number;
	ioUringSetup: number;
	/** System call numbers at or above this are another ABI's (x32 on x86-64). */
	foreignAbove?: number;
}

const ARCHITECTURES: Partial<Record<NodeJS.Architecture, Architecture>> = {
	x64: { audit: 0xc000003e, socket: 41, ioUringSetup: 425, foreignAbove: 0x40000000 },
	arm64: { audit: 0xc00000b7, socket: 198, ioUringSetup: 425 },
};

/** One instruction; `label` names it as a jump target. Jumps go forward only, as BPF's do. */
type Instruction = { label?: string } & (
	| { op: "load"; offset: number }
	| { op: "jump-if-equal" | "jump-if-above-or-equal"; value: number; to: string }
	| { op: "return"; value: number }
);

function assemble(program: Instruction[]): Buffer {
	const labels = new Map<string, number>();
	program.forEach((instruction, index) => {
		if (instruction.label) labels.set(instruction.label, index);
	});
	const offset = (from: number, label: string | undefined) => {
		if (label === undefined) return 0;
		const at = labels.get(label);
		if (at === undefined || at <= from || at - from - 1 > 255) throw new Error(`seccomp filter: bad jump to ${label}`);
		return at - from - 1;
	};
	const buffer = Buffer.alloc(program.length * 8);
	program.forEach((instruction, index) => {
		const at = index * 8;
		if (instruction.op === "load") {
			buffer.writeUInt16LE(BPF_LD_W_ABS, at);
			buffer.writeUInt32LE(instruction.offset, at + 4);
		} else if (instruction.op === "return") {
			buffer.writeUInt16LE(BPF_RET_K, at);
			buffer.writeUInt32LE(instruction.value >>> 0, at + 4);
		} else {
			buffer.writeUInt16LE(instruction.op === "jump-if-equal" ? BPF_JEQ_K : BPF_JGE_K, at);
			buffer.writeUInt8(offset(index, instruction.to), at + 2);
			buffer.writeUInt8(0, at + 3);
			buffer.writeUInt32LE(instruction.value >>> 0, at + 4);
		}
	});
	return buffer;
}

/** The filter for this machine, or undefined on an architecture it is not written for. */
export function noNetworkSeccompFilter(arch: string = process.arch): Buffer | undefined {
	const machine = ARCHITECTURES[arch as NodeJS.Architecture];
	if (!machine) return undefined;
	const foreign: Instruction[] =
		machine.foreignAbove === undefined
			? []
			: [{ op: "jump-if-above-or-equal", value: machine.foreignAbove, to: "refuse" }];
	return assemble([
		{ op: "load", offset: 4 },
		{ op: "jump-if-equal", value: machine.audit, to: "native" },
		{ op: "return", value: SECCOMP_RET_KILL_PROCESS },
		{ op: "load", offset: 0, label: "native" },
		...foreign,
		{ op: "jump-if-equal", value: machine.ioUringSetup, to: "refuse" },
		{ op: "jump-if-equal", value: machine.socket, to: "socket" },
		{ op: "return", value: SECCOMP_RET_ALLOW },
		{ op: "load", offset: 16, label: "socket" },
		{ op: "jump-if-equal", value: AF_UNIX, to: "refuse" },
		{ op: "jump-if-equal", value: AF_VSOCK, to: "refuse" },
		{ op: "return", value: SECCOMP_RET_ALLOW },
		{ op: "return", value: SECCOMP_RET_ERRNO_EPERM, label: "refuse" },
	]);
}
