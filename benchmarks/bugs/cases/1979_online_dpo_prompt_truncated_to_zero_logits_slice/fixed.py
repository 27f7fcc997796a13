import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size: int, hidden_size: int):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.lm_head = nn.Linear(hidden_size, vocab_size)

    def forward(
        self, input_ids: Int[Tensor, "b l"], attention_mask: Int[Tensor, "b l"]
    ) -> Float[Tensor, "b l v"]:
        hidden: Float[Tensor, "b l d"] = self.embed_tokens(input_ids) * attention_mask.unsqueeze(-1)
        steps = torch.arange(1, hidden.size(1) + 1, device=hidden.device).view(1, -1, 1)
        hidden = hidden.cumsum(dim=1) / steps  # causal: position t only sees tokens <= t
        return self.lm_head(torch.tanh(hidden))


class OnlineDPOTrainer:
    def __init__(self, model: TinyCausalLM, max_length: int):
        self.model = model
        self.max_length = max_length

    def _forward(
        self,
        model: TinyCausalLM,
        prompt_ids: Int[Tensor, "b p"],
        prompt_mask: Int[Tensor, "b p"],
        completion_ids: Int[Tensor, "b c"],
        completion_mask: Int[Tensor, "b c"],
    ) -> Float[Tensor, "b c"]:
        # Get the number of tokens to truncate from prompt, but always keep the last prompt
        # token: its logits are the ones that predict the first completion token
        num_tokens_to_truncate = max(prompt_ids.size(1) + completion_ids.size(1) - self.max_length, 0)
        num_tokens_to_truncate = min(num_tokens_to_truncate, prompt_ids.size(1) - 1)

        # Truncate left to avoid oom
        prompt_ids = prompt_ids[:, num_tokens_to_truncate:]
        prompt_mask = prompt_mask[:, num_tokens_to_truncate:]

        # Concat the prompt and completion
        prompt_completion_ids = torch.cat((prompt_ids, completion_ids), dim=1)
        prompt_completion_mask = torch.cat((prompt_mask, completion_mask), dim=1)

        # Get the logprobs of the completions from the model
        logits: Float[Tensor, "b l v"] = model(prompt_completion_ids, attention_mask=prompt_completion_mask)

        # There is 1 offset, because the model predict the next token
        logits = logits[:, prompt_ids.size(1) - 1 : -1]

        # Take the completion tokens logprob
        logprobs = torch.take_along_dim(logits.log_softmax(dim=-1), completion_ids.unsqueeze(-1), dim=2).squeeze(-1)
        return logprobs


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab_size = 50
    model = TinyCausalLM(vocab_size, hidden_size=16)
    trainer = OnlineDPOTrainer(model, max_length=8)

    prompt_ids = torch.randint(1, vocab_size, (2, 6))
    prompt_mask = torch.ones_like(prompt_ids)
    completion_ids = torch.randint(1, vocab_size, (2, 8))
    completion_mask = torch.ones_like(completion_ids)

    with torch.no_grad():
        logprobs = trainer._forward(model, prompt_ids, prompt_mask, completion_ids, completion_mask)

        # reference: score every completion token from its own left context, one at a time
        context = prompt_ids[:, -1:]
        for j in range(completion_ids.size(1)):
            ids = torch.cat((context, completion_ids[:, :j]), dim=1)
            last_logits = model(ids, torch.ones_like(ids))[:, -1]
            expected = last_logits.log_softmax(dim=-1)
            for b in range(ids.size(0)):
                assert torch.allclose(logprobs[b, j], expected[b, completion_ids[b, j]], atol=1e-5), (b, j)
    assert logprobs.shape == completion_ids.shape
    print("ok")
