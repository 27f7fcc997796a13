from dataclasses import dataclass
from typing import List

import torch
from torch import nn


@dataclass
class PrefillTokens:
    token_ids: List[int]
    logprobs: List[float]


def prefill_tokens(logits: torch.Tensor, all_input_ids: torch.Tensor, new_input_length: int) -> PrefillTokens:
    """
    Log-probabilities of the prompt tokens, returned with the first generation step.

    Args:
        logits (`torch.FloatTensor` of shape `(sequence_length, vocab_size)`):
            Prediction scores of the causal LM for every position of one request.
        all_input_ids (`torch.LongTensor` of shape `(sequence_length, 1)`):
            Prompt ids followed by the token generated at this step.
        new_input_length (`int`):
            Number of ids in `all_input_ids` that belong to the request.

    Returns:
        `PrefillTokens`: prompt ids and their log-probabilities (`nan` for the first prompt token).
    """
    logprobs = torch.log_softmax(logits, -1)
    # Remove generated token to only have prefill and add nan for first prompt token
    prefill_logprobs = [float("nan")] + logprobs[-new_input_length:-1].gather(
        1, all_input_ids[-new_input_length:-1]
    ).squeeze(1).tolist()
    prefill_token_ids = all_input_ids[-new_input_length:-1].squeeze(1).tolist()
    return PrefillTokens(prefill_token_ids, prefill_logprobs)


class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size: int, hidden_size: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.lm_head = nn.Linear(hidden_size, vocab_size)

    def forward(self, input_ids):
        h = torch.cumsum(self.embed(input_ids), dim=0)
        return self.lm_head(torch.tanh(h))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyCausalLM(vocab_size=50, hidden_size=16)
    prompt = torch.tensor([3, 17, 8, 42, 5, 11])
    logits = model(prompt)
    next_id = logits[-1].argmax()
    all_input_ids = torch.cat([prompt, next_id.view(1)]).unsqueeze(-1)
    tokens = prefill_tokens(logits, all_input_ids, new_input_length=all_input_ids.shape[0])
    print("prefill logprobs:", [round(v, 3) for v in tokens.logprobs])
