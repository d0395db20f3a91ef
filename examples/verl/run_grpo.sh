#!/usr/bin/env bash
# GRPO with veRL on one GPU (examples/verl/grpo.yaml): prove-env tasks converted to veRL's dataset, played in
# veRL's multi-turn tool agent loop, one prove-env episode per trajectory, PROVE's reward.
#
#   prove-env synth --servers banking,calendar,filesystem --n 2000 --seed 0 --out data/
#   python -m prove_env.integrations.verl data/ data/verl/
#   bash examples/verl/run_grpo.sh                       # DATA=data/verl MODEL=Qwen/Qwen2.5-0.5B-Instruct
#   bash examples/verl/run_grpo.sh trainer.total_training_steps=50 actor_rollout_ref.rollout.n=8
#
# Any further argument is a Hydra override of veRL's config.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
data="$(cd "${DATA:-data/verl}" && pwd)"
python -m verl.trainer.main_ppo --config-path="$here" --config-name=grpo \
    data.train_files="$data/train.parquet" \
    data.val_files="$data/test.parquet" \
    actor_rollout_ref.rollout.agent.agent_loop_config_path="$data/agent_loop.yaml" \
    actor_rollout_ref.model.path="${MODEL:-Qwen/Qwen2.5-0.5B-Instruct}" \
    "$@"
