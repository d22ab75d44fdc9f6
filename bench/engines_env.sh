#!/usr/bin/env bash
# The engines' environment for bench/engines.py (never a test dependency): vLLM and SGLang
# without their dependency trees, then only what their tool-parser modules import, and the
# CPU build of torch that lies on this machine's disk (`torch==2.13.0`; the engines pin a newer
# CUDA build, which they do not need to parse text). Usage: bash bench/engines_env.sh [DIR]
set -euo pipefail
venv=${1:-/work/benchenv-engines}
python3 -m venv "$venv"
pip="$venv/bin/pip install -q"
$pip --no-deps vllm==0.33.0 sglang==0.5.23 xgrammar py-cpuinfo
$pip triton  # (sglang.srt.utils imports it at module level)
$pip torch==2.13.0 numpy pydantic orjson partial-json-parser openai regex psutil pybase64 requests \
    packaging pillow starlette msgspec pyzmq tqdm IPython aiohttp apache-tvm-ffi cbor2 transformers \
    openai-harmony fastapi cachetools prometheus_client cloudpickle uvloop ijson mistral_common
"$venv/bin/python" -c "import sglang.srt.function_call.function_call_parser"
