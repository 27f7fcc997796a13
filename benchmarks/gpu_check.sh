#!/usr/bin/env bash
# Everything that needs a GPU, in one run that ends inside ten minutes (each stage has its own limit):
#   bash benchmarks/gpu_check.sh [BUG_SET ...]
# 1. the CUDA tests (tests/test_runtime_cuda.py, tests/test_runtime_device_records.py);
# 2. runtime reach on the real-bug sets with torch's default device set to CUDA, at both levels;
# 3. runtime overhead with models and tensors on the GPU, and what the device-side record costs, part by part.
# The package need not be installed: the checkout goes on PYTHONPATH. BUG_SET defaults to the
# project's own benchmarks/bugs; give other set folders (each holding cases/ and clean/) to run those.
# Logs go to $OUT when it is set (else to gpu-check-logs/); a stage that runs out of time is cut, and
# the next one still runs.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
logs="${OUT:-gpu-check-logs}"
mkdir -p "$logs"
sets=("$@")
[ ${#sets[@]} -eq 0 ] && sets=(benchmarks/bugs)
jobs=$(nproc)

python3 -c "import sys, torch; print(sys.version.split()[0], torch.__version__, torch.cuda.get_device_name())" \
  || { echo "gpu_check: no CUDA device" >&2; exit 2; }

timeout 100 python3 -m pytest -q -p no:cacheprovider tests/test_runtime_cuda.py tests/test_runtime_device_records.py \
  > "$logs/pytest.log" 2>&1
echo "CUDA tests: exit $?"; grep -E "^(FAILED|ERROR)|passed|failed" "$logs/pytest.log"

timeout 90 python3 benchmarks/runtime_overhead.py --quick --device cuda > "$logs/overhead.log" 2>&1
echo "overhead on CUDA: exit $?"; cat "$logs/overhead.log"

timeout 30 python3 benchmarks/runtime_record_cost.py --device cuda > "$logs/record_cost.log" 2>&1
echo "record cost on CUDA: exit $?"; cat "$logs/record_cost.log"

# the project's own set took over 170 s at 14 jobs on an H100 machine (every program starts torch and CUDA):
# each level gets a budget; programs not started by then are counted as not run, and what ran is printed
for level in async sync; do
  budget=$([ "$level" = async ] && echo 190 || echo 80)
  timeout $((budget + 50)) python3 benchmarks/runtime_recall.py --jobs "$jobs" --timeout 40 --budget "$budget" \
    --device cuda --level "$level" "${sets[@]}" > "$logs/recall_$level.log" 2>&1
  echo "runtime recall on CUDA, level $level: exit $?"; cat "$logs/recall_$level.log"
done
