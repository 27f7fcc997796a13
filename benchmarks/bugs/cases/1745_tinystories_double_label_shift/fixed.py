import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size: int, d_model: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model)
        self.rnn = nn.GRU(d_model, d_model, batch_first=True)
        self.lm_head = nn.Linear(d_model, vocab_size)

    def forward(self, input_ids: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch seq vocab"]:
        h, _ = self.rnn(self.embed(input_ids))
        return self.lm_head(h)


def causal_lm_loss(logits: Float[Tensor, "batch seq vocab"], labels: Int[Tensor, "batch seq"]) -> Float[Tensor, ""]:
    # position t predicts token t + 1, as in *ForCausalLM models
    shift_logits = logits[:, :-1]
    shift_labels = labels[:, 1:]
    logprobs = shift_logits.log_softmax(dim=-1)
    token_logprobs = logprobs.gather(-1, shift_labels.unsqueeze(-1)).squeeze(-1)
    return -token_logprobs.mean()


def make_training_batch(
    token_ids: Int[Tensor, "batch seq_plus_1"],
) -> tuple[Int[Tensor, "batch seq"], Int[Tensor, "batch seq"]]:
    return token_ids, token_ids


def train_step_loss(model: TinyCausalLM, token_ids: Int[Tensor, "batch seq_plus_1"]) -> Float[Tensor, ""]:
    input_ids, labels = make_training_batch(token_ids)
    return causal_lm_loss(model(input_ids), labels)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyCausalLM(vocab_size=50, d_model=16)
    token_ids = torch.randint(0, 50, (4, 12))
    with torch.no_grad():
        loss = train_step_loss(model, token_ids)
        logits = model(token_ids)
        nll = [-logits[b, t].log_softmax(-1)[token_ids[b, t + 1]]
               for b in range(4) for t in range(11)]
        ref = torch.stack(nll).mean()
    assert torch.allclose(loss, ref, atol=1e-5)
    print("ok")
