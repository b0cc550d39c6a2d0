"""Energy: what a token costs in joules and in kilowatt-hours.

Power in watts, token rates in tokens/s. 1 W = 1 J/s, so watts ÷ tokens/s is joules per
token; 1 kWh = 3.6 × 10⁶ J.
"""

from __future__ import annotations

JOULES_PER_KWH = 3.6e6


def joules_per_token(power_w, tokens_per_sec):
    """Energy per token: power ÷ token rate.

    .. math:: E_{tok} = \\frac{P}{R}

    Parameters
    ----------
    power_w : float
        Power drawn while producing the tokens [W]; a GPU's TDP is an upper bound for the
        GPU alone.
    tokens_per_sec : float
        Tokens produced per second at that power [tokens/s].

    Returns
    -------
    J per token. Hand check: 700 W at 2,000 tokens/s: 0.35 J per token.

    References
    ----------
    BIPM (2019), The International System of Units (SI), 9th ed., Table 4: 1 W = 1 J/s.
    """
    return power_w / tokens_per_sec


def energy_per_mtok_kwh(power_w, tokens_per_sec, pue=1.0):
    """Energy per million tokens at the meter: J per token × 10⁶ ÷ 3.6 × 10⁶ × PUE.

    .. math:: E_{Mtok} = \\frac{P}{R} \\cdot \\frac{10^6}{3.6 \\times 10^6} \\cdot PUE

    Parameters
    ----------
    power_w : float
        Power drawn [W].
    tokens_per_sec : float
        Tokens produced per second at that power [tokens/s].
    pue : float
        Power usage effectiveness of the data centre (facility ÷ IT energy), at least 1
        [ratio].

    Returns
    -------
    kWh per million tokens. Hand check: 700 W at 2,000 tokens/s, PUE 1.3: 0.35 J ×
    10⁶ = 350,000 J = 0.09722 kWh; × 1.3 = 0.1264 kWh.

    References
    ----------
    ISO/IEC 30134-2:2016, "Key performance indicators — Power usage effectiveness (PUE)".
    """
    return power_w / tokens_per_sec * 1e6 / JOULES_PER_KWH * pue
