from dataclasses import dataclass, replace

import torch
import torch.nn as nn


@dataclass
class ModelInputs:
    input_ids: torch.Tensor          # [1, num_tokens] packed
    seq_length: torch.Tensor         # [batch]
    is_chunk: bool = False
    is_first_chunk: bool = False


@dataclass
class SpecExtraInputs:
    next_token_ids: torch.Tensor        # [batch] token sampled by the target model
    last_token_indices: torch.Tensor    # [batch] position of each sequence's last token in input_ids
    target_hidden_states: torch.Tensor  # [1, num_tokens, hidden]


class ChunkCarry:
    """Keeps the last hidden state of a chunk so the next chunk can prepend it."""

    def __init__(self):
        self.saved = {}

    def save_last(self, key, t):
        self.saved[key] = t[:, -1:]
        return t[:, :-1]


def prepare_draft_inputs(model_inputs, extra, carry):
    """The draft (MTP) head sees token t+1 together with the target hidden state of token t."""
    hidden = extra.target_hidden_states
    last_token_indices = extra.last_token_indices
    if not model_inputs.is_chunk:
        input_ids = model_inputs.input_ids.clone()
        input_ids[:, :-1] = model_inputs.input_ids[:, 1:]         # shift left by one
        input_ids[:, last_token_indices] = extra.next_token_ids    # sampled token goes last
        seq_length = model_inputs.seq_length
    elif model_inputs.is_first_chunk:
        # first chunk of a long prompt: drop the first token, carry the last hidden state over
        input_ids = model_inputs.input_ids[:, 1:]                  # [1, L - 1]
        seq_length = model_inputs.seq_length - 1
        hidden = carry.save_last("hidden_states", hidden)          # [1, L - 1, hidden]
    else:
        raise NotImplementedError("middle/last chunks are not needed here")
    draft_inputs = replace(model_inputs, input_ids=input_ids, seq_length=seq_length)
    draft_extra = replace(extra, last_token_indices=last_token_indices, target_hidden_states=hidden)
    return draft_inputs, draft_extra


class MTPHead(nn.Module):
    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.fuse = nn.Linear(2 * hidden_size, hidden_size)
        self.lm_head = nn.Linear(hidden_size, vocab_size, bias=False)

    def forward(self, inputs, extra):
        x = torch.cat([self.embed(inputs.input_ids), extra.target_hidden_states], dim=-1)
        hidden_states = torch.tanh(self.fuse(x))                   # [1, T, hidden]
        hidden_states = hidden_states[:, extra.last_token_indices]  # [1, batch, hidden]
        logits = self.lm_head(hidden_states)[0]                    # [batch, vocab]
        return logits.argmax(-1, keepdim=True), hidden_states


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab, hidden, chunk = 64, 16, 8
    head = MTPHead(vocab, hidden).eval()
    prompt_chunk = torch.randint(0, vocab, (1, chunk))
    model_inputs = ModelInputs(prompt_chunk, torch.tensor([chunk]), is_chunk=True, is_first_chunk=True)
    extra = SpecExtraInputs(
        next_token_ids=torch.tensor([0]),
        last_token_indices=torch.tensor([chunk - 1]),
        target_hidden_states=torch.randn(1, chunk, hidden),
    )
    draft_inputs, draft_extra = prepare_draft_inputs(model_inputs, extra, ChunkCarry())
    with torch.no_grad():
        draft_tokens, last_hidden = head(draft_inputs, draft_extra)
    print("draft tokens:", draft_tokens.tolist())
