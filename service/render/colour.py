"""Colour science for the seat palette, in numpy only: CIEDE2000 distances and colour-vision
deficiency simulation, so the palette's distinctness is a tested number rather than a claim.

- sRGB -> CIE L*a*b* (D65), IEC 61966-2-1 transfer curve.
- CIEDE2000 colour difference: Sharma, Wu & Dalal, "The CIEDE2000 Color-Difference Formula:
  Implementation Notes, Supplementary Test Data, and Mathematical Observations" (2005).
- Dichromat simulation: Machado, Oliveira & Fernandes, "A Physiologically-based Model for
  Simulation of Color Vision Deficiency" (IEEE TVCG 2009), severity 1.0 matrices, applied to
  linear RGB (the same values colorspacious ships).
"""

from __future__ import annotations

import numpy as np

# Machado et al. 2009, severity 1.0 (full dichromacy), linear RGB -> linear RGB.
MACHADO_2009 = {
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779],
                            [-0.078411, 0.930809, 0.147602],
                            [0.004733, 0.691367, 0.303900]]),
}
VISIONS = ("normal", *MACHADO_2009)
_SRGB_TO_XYZ = np.array([[0.4124564, 0.3575761, 0.1804375],
                         [0.2126729, 0.7151522, 0.0721750],
                         [0.0193339, 0.1191920, 0.9503041]])
_WHITE_D65 = np.array([0.95047, 1.0, 1.08883])


def hex_to_rgb(colours) -> np.ndarray:
    """``["#RRGGBB", ...]`` -> (n, 3) sRGB in 0..1."""
    return np.array([[int(c[i:i + 2], 16) / 255 for i in (1, 3, 5)] for c in colours], dtype=float)


def to_linear(rgb: np.ndarray) -> np.ndarray:
    rgb = np.asarray(rgb, dtype=float)
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


def simulate(rgb: np.ndarray, vision: str) -> np.ndarray:
    """sRGB (0..1) as seen with ``vision`` ("normal" or a key of :data:`MACHADO_2009`), as sRGB."""
    if vision == "normal":
        return np.asarray(rgb, dtype=float)
    lin = np.clip(to_linear(rgb) @ MACHADO_2009[vision].T, 0.0, 1.0)
    return np.where(lin <= 0.0031308, 12.92 * lin, 1.055 * lin ** (1 / 2.4) - 0.055)


def rgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    xyz = to_linear(rgb) @ _SRGB_TO_XYZ.T / _WHITE_D65
    eps, kappa = 216 / 24389, 24389 / 27
    f = np.where(xyz > eps, np.cbrt(xyz), (kappa * xyz + 16) / 116)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


def ciede2000(lab1: np.ndarray, lab2: np.ndarray) -> np.ndarray:
    """CIEDE2000 difference between L*a*b* colours (broadcasting over leading axes; kL=kC=kH=1)."""
    L1, a1, b1 = np.moveaxis(np.asarray(lab1, dtype=float), -1, 0)
    L2, a2, b2 = np.moveaxis(np.asarray(lab2, dtype=float), -1, 0)
    c1, c2 = np.hypot(a1, b1), np.hypot(a2, b2)
    cbar7 = ((c1 + c2) / 2) ** 7
    g = 0.5 * (1 - np.sqrt(cbar7 / (cbar7 + 25.0 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360
    dLp = L2 - L1
    dCp = c2p - c1p
    zero = (c1p * c2p) == 0
    dh = h2p - h1p
    dh = np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh))
    dh = np.where(zero, 0.0, dh)
    dHp = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh / 2))
    Lbar = (L1 + L2) / 2
    Cbar = (c1p + c2p) / 2
    hsum = h1p + h2p
    hbar = np.where(np.abs(h1p - h2p) <= 180, hsum / 2, np.where(hsum < 360, (hsum + 360) / 2, (hsum - 360) / 2))
    hbar = np.where(zero, hsum, hbar)
    t = (1 - 0.17 * np.cos(np.radians(hbar - 30)) + 0.24 * np.cos(np.radians(2 * hbar))
         + 0.32 * np.cos(np.radians(3 * hbar + 6)) - 0.20 * np.cos(np.radians(4 * hbar - 63)))
    dtheta = 30 * np.exp(-(((hbar - 275) / 25) ** 2))
    cbar7p = Cbar ** 7
    rc = 2 * np.sqrt(cbar7p / (cbar7p + 25.0 ** 7))
    sl = 1 + 0.015 * (Lbar - 50) ** 2 / np.sqrt(20 + (Lbar - 50) ** 2)
    sc = 1 + 0.045 * Cbar
    sh = 1 + 0.015 * Cbar * t
    rt = -np.sin(np.radians(2 * dtheta)) * rc
    return np.sqrt((dLp / sl) ** 2 + (dCp / sc) ** 2 + (dHp / sh) ** 2 + rt * (dCp / sc) * (dHp / sh))


def pairwise_distances(colours, vision: str = "normal") -> np.ndarray:
    """(n, n) CIEDE2000 distances between ``colours`` (hex) as seen with ``vision``."""
    lab = rgb_to_lab(simulate(hex_to_rgb(colours), vision))
    return ciede2000(lab[:, None, :], lab[None, :, :])


def min_distance(colours, vision: str = "normal", others=()) -> float:
    """The smallest distance between two of ``colours``, or between one of them and one of ``others``."""
    allc = list(colours) + list(others)
    d = pairwise_distances(allc, vision)
    n = len(colours)
    d[np.tril_indices(len(allc))] = np.inf
    d[n:, n:] = np.inf  # pairs among ``others`` do not count
    return float(d.min())
