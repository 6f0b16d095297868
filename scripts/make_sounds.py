"""The table's card sounds, synthesized here and written to static/sounds/ (the project's own,
under the project's licence; run again to remake them: the output is the same each time).

deal.wav: a short soft swish (a card slid off the deck); play.wav: a light tap (a card laid on
the felt); win.wav: three rising notes. 22,050 Hz, mono, 16-bit."""

import math
import random
import struct
import wave
from pathlib import Path

RATE = 22_050
OUT = Path(__file__).resolve().parent.parent / "static" / "sounds"


def write(name: str, samples: list[float]) -> None:
    peak = max(abs(s) for s in samples) or 1.0
    frames = b"".join(struct.pack("<h", round(s / peak * 0.6 * 32767)) for s in samples)
    with wave.open(str(OUT / name), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(frames)


def swish(seconds: float = 0.14) -> list[float]:
    noise = random.Random(7)  # fixed: the same file each run
    n = int(RATE * seconds)
    out, low = [], 0.0
    for i in range(n):
        t = i / n
        low += 0.35 * (noise.uniform(-1, 1) - low)  # a gentle low-pass: a swish, not a hiss
        out.append(low * math.sin(math.pi * t) ** 2)
    return out


def tap(seconds: float = 0.09) -> list[float]:
    noise = random.Random(11)
    n = int(RATE * seconds)
    return [
        (0.6 * math.sin(2 * math.pi * 180 * i / RATE) + 0.4 * noise.uniform(-1, 1))
        * math.exp(-i / (RATE * 0.012))
        for i in range(n)
    ]


def notes(freqs=(523.25, 659.25, 783.99), each: float = 0.13, ring: float = 0.35) -> list[float]:
    n = int(RATE * (each * len(freqs) + ring))
    out = [0.0] * n
    for k, f in enumerate(freqs):
        start = int(RATE * each * k)
        for i in range(n - start):
            env = math.exp(-i / (RATE * 0.18)) * min(1.0, i / (RATE * 0.005))
            out[start + i] += env * (
                math.sin(2 * math.pi * f * i / RATE) + 0.3 * math.sin(4 * math.pi * f * i / RATE)
            )
    return out


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    write("deal.wav", swish())
    write("play.wav", tap())
    write("win.wav", notes())
    for p in sorted(OUT.glob("*.wav")):
        print(p.name, p.stat().st_size, "bytes")
