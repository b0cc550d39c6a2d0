"""Names and units as people type them: exact names win, names copied from nvidia-smi and
Hugging Face resolve, words that match nothing are errors with suggestions, and counts
carry scales ("1M tokens")."""

import pytest
from pytest import approx

from udfs import GPU_SPEC, GPUS_FOR_DEMAND, KV_CACHE_GB, MODEL_SPEC, PER_USER_TPS
from udfs.machinery.errors import ExcelError


def code(v):
    return v.code if isinstance(v, ExcelError) else None


# --- an exact name wins -------------------------------------------------------------------

@pytest.mark.parametrize(("typed", "row"), [
    ("H20", "NVIDIA H20"),          # not the H200
    ("L4", "NVIDIA L4"),            # not the L40S
    ("h20", "NVIDIA H20"),
    ("NVIDIA L4", "NVIDIA L4"),
    ("L40S", "NVIDIA L40S"),
    ("H200", "NVIDIA H200 SXM"),
    ("B200", "NVIDIA B200 (HGX)"),  # not the GB200
])
def test_an_exact_name_wins(typed, row):
    assert GPU_SPEC(typed, "name") == row


def test_h20_and_l4_figures_are_their_own():
    # NVIDIA H20: 4.0 TB/s (aiconfigurator h20_sxm.yaml mem_bw 4.0e12); L4: 300 GB/s
    # (NVIDIA L4 datasheet)
    assert GPU_SPEC("H20", "bandwidth") == 4.0
    assert GPU_SPEC("L4", "bandwidth") == 0.3


# --- names copied from tools --------------------------------------------------------------

@pytest.mark.parametrize(("typed", "row"), [
    ("NVIDIA H100 80GB HBM3", "NVIDIA H100 SXM"),   # nvidia-smi, SXM5 H100
    ("NVIDIA A100-SXM4-80GB", "NVIDIA A100 80GB SXM"),
    ("NVIDIA A100-SXM4-40GB", "NVIDIA A100 40GB SXM"),
    ("NVIDIA H100 PCIe", "NVIDIA H100 PCIe"),
    ("NVIDIA H100 NVL", "NVIDIA H100 NVL"),
])
def test_nvidia_smi_names_resolve(typed, row):
    assert GPU_SPEC(typed, "name") == row


@pytest.mark.parametrize(("typed", "row"), [
    ("meta-llama/Meta-Llama-3.1-8B-Instruct", "Llama 3.1 8B"),
    ("meta-llama/Llama-3.1-70B", "Llama 3.1 70B"),
    ("mistralai/Mixtral-8x7B-Instruct-v0.1", "Mixtral 8x7B"),
    ("mistralai/Mistral-7B-Instruct-v0.3", "Mistral 7B v0.3"),
    ("Qwen/Qwen2.5-7B-Instruct", "Qwen2.5 7B"),
    ("google/gemma-2-9b-it", "Gemma 2 9B"),
    ("deepseek-ai/DeepSeek-V3", "DeepSeek-V3"),
    ("microsoft/Phi-3-mini-4k-instruct", "Phi-3 mini (4k instruct)"),
])
def test_hugging_face_ids_resolve(typed, row):
    assert MODEL_SPEC(typed, "name") == row


# --- words that match nothing are errors, with suggestions ---------------------------------

def test_a_stray_word_is_an_error_not_noise():
    r = GPU_SPEC("H100 😀", "bandwidth")
    assert code(r) == "#N/A"
    assert "😀" in r.message and "did you mean" in r.message and "H100 SXM" in r.message
    assert code(GPU_SPEC("H100 banana", "bandwidth")) == "#N/A"


def test_unknown_names_suggest_the_closest_rows():
    r = GPU_SPEC("H900", "memory")
    assert code(r) == "#N/A" and "did you mean" in r.message and "H100" in r.message
    r = MODEL_SPEC("Lama 3.1 8B", "params")
    assert code(r) == "#N/A" and "Llama 3.1 8B" in r.message


def test_ambiguous_names_list_the_candidates():
    r = GPU_SPEC("A100", "memory")
    assert code(r) == "#N/A"
    assert "A100 40GB SXM" in r.message and "A100 80GB SXM" in r.message


# --- units with count scales ----------------------------------------------------------------

@pytest.mark.parametrize(("typed", "tokens"), [
    ("1M tokens", 1e6), ("1m tokens", 1e6), ("8k tokens", 8e3), ("8K tokens", 8e3),
    ("1.5B tokens", 1.5e9), ("2 million tokens", 2e6), ("1,000 k tokens", 1e6),
    ("8192 tokens", 8192),
])
def test_token_counts_with_scales(typed, tokens):
    # KV_CACHE_GB is linear in tokens: 2 x 1 x 1 x 1 x 2 B x T / 1e9 = 4e-9 T GB
    assert KV_CACHE_GB(1, 1, 1, typed) == approx(4e-9 * tokens)


def test_token_rates_with_scales():
    assert PER_USER_TPS("2k tokens/s", 10) == approx(200)
    assert PER_USER_TPS("1.8 k tokens/s", 10) == approx(180)


def test_daily_volume_with_scale():
    # 1.5e9 tokens a day = 17,361 tokens/s; at 2,500 tokens/s per GPU: 6.94, so 7 GPUs
    assert GPUS_FOR_DEMAND("1.5B tokens/day", 2500) == 7
    assert GPUS_FOR_DEMAND("1.5B tokens", 2500) == 7


def test_byte_prefixes_stay_bytes():
    # "B" after a number is a scale only before "tokens": "1.5 B" elsewhere stays a byte
    assert code(KV_CACHE_GB(1, 1, 1, "1.5 GB")) == "#VALUE!"
