from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


def log_probs_from_logits(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """logits: (batch, seq_len, vocab); labels: (batch, seq_len) -> (batch, seq_len) log p(label)."""
    log_probs = F.log_softmax(logits, dim=-1)
    log_probs_labels = log_probs.gather(dim=-1, index=labels.unsqueeze(-1))
    return log_probs_labels.squeeze(-1)


class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size=32, dim=24):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.lm_head = nn.Linear(dim, vocab_size)

    def forward(self, input_ids, attention_mask=None):
        h = self.embed(input_ids)
        steps = torch.arange(1, input_ids.shape[1] + 1).view(1, -1, 1)
        h = torch.cumsum(h, dim=1) / steps
        return {"logits": self.lm_head(torch.tanh(h))}

    @torch.no_grad()
    def generate(self, input_ids, max_new_tokens, eos_token_id, pad_token_id, **kwargs):
        seq = input_ids
        finished = torch.zeros(seq.shape[0], dtype=torch.bool)
        for _ in range(max_new_tokens):
            next_tok = self(seq)["logits"][:, -1].argmax(-1)
            next_tok = next_tok.masked_fill(finished, pad_token_id)
            finished |= next_tok == eos_token_id
            seq = torch.cat([seq, next_tok[:, None]], dim=1)
        return seq


class Actor(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    @torch.no_grad()
    def generate(self, input_ids: torch.Tensor, **kwargs):
        """input_ids: (batch, input_len) left-padded prompts.

        Returns sequences (batch, seq_len), attention_mask (batch, seq_len) and
        action_mask (batch, num_actions) over the generated part.
        """
        sequences = self.model.generate(input_ids, **kwargs)
        eos_token_id = kwargs.get("eos_token_id")
        pad_token_id = kwargs.get("pad_token_id")

        attention_mask = (sequences.ne(eos_token_id) & sequences.ne(pad_token_id)).to(dtype=torch.long)
        seq_length = attention_mask.size(1)
        eos_indices = seq_length - attention_mask.long().fliplr().argmax(dim=1, keepdim=True).clamp(min=1)
        attention_mask.scatter_(dim=1, index=eos_indices, value=1)
        sequences.scatter_(dim=1, index=eos_indices, value=eos_token_id)

        input_len = input_ids.size(1)
        # in RL, state_i (current token) + action_i (next token) -> state_i+1 (next token)
        state_seq = sequences[:, input_len - 1 : -1]
        # we only calculate the loss of state_i != eos | pad
        action_mask = state_seq.ne(eos_token_id) & state_seq.ne(pad_token_id)
        return sequences, attention_mask, action_mask

    def forward(self, sequences: torch.LongTensor, num_actions: int = None, attention_mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        """Returns action log probs, shape (batch, num_actions): log p of the last num_actions tokens."""
        output = self.model(sequences, attention_mask=attention_mask)
        log_probs = log_probs_from_logits(output["logits"][:, :-1, :], sequences[:, 1:])
        return log_probs[:, -num_actions:]


def response_log_likelihood(actor, prompts, **gen_kwargs):
    sequences, attention_mask, action_mask = actor.generate(prompts, **gen_kwargs)
    num_actions = action_mask.size(1)
    with torch.no_grad():
        action_log_probs = actor(sequences, num_actions, attention_mask)
    return sequences, (action_log_probs * action_mask).sum(dim=-1), action_mask


if __name__ == "__main__":
    torch.manual_seed(0)
    EOS, PAD = 2, 0
    lm = TinyCausalLM()
    with torch.no_grad():
        lm.lm_head.bias[EOS] += 0.3
    actor = Actor(lm)
    prompts = torch.tensor([[PAD, 7, 9, 12], [5, 6, 17, 3], [PAD, PAD, 21, 8]])
    sequences, seq_logp, action_mask = response_log_likelihood(actor, prompts, max_new_tokens=6, eos_token_id=EOS, pad_token_id=PAD)
    input_len = prompts.shape[1]
    assert action_mask.shape[1] == sequences.shape[1] - input_len

    # reference: sum log p(token_t | prefix) over every generated token whose previous token is not eos/pad
    with torch.no_grad():
        logits = lm(sequences)["logits"]
    for b in range(sequences.shape[0]):
        total = 0.0
        for t in range(input_len, sequences.shape[1]):
            prev = sequences[b, t - 1].item()
            if prev in (EOS, PAD) and t > input_len:
                continue
            total += torch.log_softmax(logits[b, t - 1], dim=-1)[sequences[b, t]].item()
        assert abs(total - seq_logp[b].item()) < 1e-4, (b, total, seq_logp[b].item())
    print("ok")
