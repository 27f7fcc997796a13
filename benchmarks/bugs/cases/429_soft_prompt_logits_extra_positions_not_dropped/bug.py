from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class PromptTuningConfig:
    vocab_size: int = 40
    hidden_size: int = 16
    num_virtual_tokens: int = 1


class PromptTunedLM(nn.Module):
    """Frozen causal LM with a trainable soft prompt prepended to every sequence.

    Args:
        input_ids: LongTensor [B, T].
    Returns:
        logits: FloatTensor [B, P + T, V], P = config.num_virtual_tokens; position i scores token i + 1.
    """

    def __init__(self, config: PromptTuningConfig):
        super().__init__()
        self.soft_prompt = nn.Parameter(torch.randn(config.num_virtual_tokens, config.hidden_size))
        self.embed = nn.Embedding(config.vocab_size, config.hidden_size)
        self.rnn = nn.GRU(config.hidden_size, config.hidden_size, batch_first=True)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size)

    def forward(self, input_ids):
        prompt = self.soft_prompt.unsqueeze(0).expand(input_ids.size(0), -1, -1)
        hidden, _ = self.rnn(torch.cat([prompt, self.embed(input_ids)], dim=1))
        return self.lm_head(hidden)


def sequence_logprobs(model, input_ids, attention_mask):
    """Sum of log p(x_t | x_<t) over the real tokens of each sequence.

    Args:
        input_ids: LongTensor [B, T].
        attention_mask: LongTensor [B, T], 1 for real tokens.
    Returns:
        FloatTensor [B].
    """
    logits = model(input_ids)[:, :-1]
    labels = input_ids[:, 1:]
    token_logp = logits.log_softmax(-1).gather(-1, labels.unsqueeze(-1)).squeeze(-1)
    return (token_logp * attention_mask[:, 1:]).sum(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = PromptTuningConfig()
    model = PromptTunedLM(cfg)
    input_ids = torch.randint(0, cfg.vocab_size, (3, 7))
    attention_mask = torch.ones_like(input_ids)
    with torch.no_grad():
        scores = sequence_logprobs(model, input_ids, attention_mask)
        ref = []
        for b in range(3):
            total = 0.0
            for t in range(1, 7):
                next_logits = model(input_ids[b : b + 1, :t])[0, -1]
                total += next_logits.log_softmax(-1)[input_ids[b, t]].item()
            ref.append(total)
    print("sequence log-probs:", [round(v, 3) for v in scores.tolist()], "reference:", [round(v, 3) for v in ref])
