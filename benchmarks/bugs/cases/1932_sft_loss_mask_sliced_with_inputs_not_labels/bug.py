import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


def build_multiturn_sample(prompt_ids: list, response_ids: list, max_length: int, pad_token_id: int) -> dict:
    input_ids = prompt_ids + response_ids
    # 0 on the generation prompt, 1 on the assistant tokens, aligned with input_ids
    loss_mask = [0] * len(prompt_ids) + [1] * len(response_ids)
    attention_mask = [1] * len(input_ids)
    pad = max_length - len(input_ids)
    return {
        "input_ids": torch.tensor(input_ids + [pad_token_id] * pad),
        "attention_mask": torch.tensor(attention_mask + [0] * pad),
        "loss_mask": torch.tensor(loss_mask + [0] * pad),
    }


def collate(samples: list) -> dict:
    return {key: torch.stack([s[key] for s in samples]) for key in samples[0]}


class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size: int, hidden: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.lm_head = nn.Linear(hidden, vocab_size)

    def forward(self, input_ids: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch seq vocab"]:
        hidden, _ = self.rnn(self.embed(input_ids))
        return self.lm_head(hidden)


def compute_loss_and_backward(model: TinyCausalLM, batch: dict) -> Tensor:
    input_ids: Int[Tensor, "batch seq"] = batch["input_ids"]
    logits: Float[Tensor, "batch seq vocab"] = model(input_ids)
    shift_logits: Float[Tensor, "batch seq_m1 vocab"] = logits[:, :-1, :]
    shift_labels: Int[Tensor, "batch seq_m1"] = input_ids[:, 1:]
    log_probs: Float[Tensor, "batch seq_m1 vocab"] = F.log_softmax(shift_logits.float(), dim=-1)
    token_nll: Float[Tensor, "batch seq_m1"] = -log_probs.gather(-1, shift_labels.unsqueeze(-1)).squeeze(-1)
    loss_mask: Float[Tensor, "batch seq_m1"] = batch["loss_mask"][:, :-1].float()
    loss = (token_nll * loss_mask).sum() / loss_mask.sum()
    loss.backward()
    return loss


if __name__ == "__main__":
    torch.manual_seed(0)
    PAD, EOS = 0, 1
    model = TinyCausalLM(vocab_size=32, hidden=24)
    conversations = [
        ([2, 9, 14, 3], [21, 7, EOS]),
        ([2, 11, 3], [5, 19, 26, 8, EOS]),
        ([2, 4, 4, 17, 3], [30, EOS]),
    ]
    batch = collate([build_multiturn_sample(p, r, max_length=10, pad_token_id=PAD) for p, r in conversations])
    loss = compute_loss_and_backward(model, batch)

    # what the loss should be: mean NLL of every assistant token given everything before it
    with torch.no_grad():
        log_probs = F.log_softmax(model(batch["input_ids"]), dim=-1)
    nll = [-log_probs[row, len(p) + j - 1, tok].item()
           for row, (p, r) in enumerate(conversations) for j, tok in enumerate(r)]
    print(f"trainer loss {loss.item():.4f}  vs  mean NLL over assistant tokens {sum(nll) / len(nll):.4f}")
    scored = batch["input_ids"][:, 1:][batch["loss_mask"][:, :-1].bool()].tolist()
    print("label tokens the trainer scores:", scored)
    print("assistant tokens:               ", [tok for _, r in conversations for tok in r])
