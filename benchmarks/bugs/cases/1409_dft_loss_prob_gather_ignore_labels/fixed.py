import torch
import torch.nn as nn


class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.mix = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.lm_head = nn.Linear(hidden_size, vocab_size)

    def forward(self, input_ids):
        h, _ = self.mix(self.embed(input_ids))
        return {"logits": self.lm_head(h)}


def dft_compute_loss(outputs, labels, num_items_in_batch=None, ignore_index=-100):
    logits = outputs["logits"].float()
    vocab_size = logits.shape[-1]
    shift_logits = logits[..., :-1, :].contiguous().view(-1, vocab_size)
    shift_labels = labels[..., 1:].contiguous().view(-1).to(shift_logits.device)

    loss = nn.functional.cross_entropy(shift_logits, shift_labels, ignore_index=ignore_index, reduction="none")
    probs = torch.softmax(shift_logits, dim=-1)
    prob_labels = torch.clamp(shift_labels, min=0)
    prob_coefs = probs.gather(1, prob_labels.unsqueeze(-1)).squeeze(-1).detach()
    loss = loss * prob_coefs

    if num_items_in_batch is not None:
        return loss.sum() / num_items_in_batch
    return loss.sum() / (shift_labels != ignore_index).sum()


def build_batch(cfg, generator):
    input_ids = torch.randint(0, cfg["vocab_size"], (cfg["batch_size"], cfg["seq_len"]), generator=generator)
    labels = input_ids.clone()
    labels[:, : cfg["prompt_len"]] = -100
    return input_ids, labels


if __name__ == "__main__":
    cfg = {"vocab_size": 32, "hidden_size": 16, "batch_size": 3, "seq_len": 10, "prompt_len": 4}
    g = torch.Generator().manual_seed(0)
    model = TinyCausalLM(cfg["vocab_size"], cfg["hidden_size"])
    input_ids, labels = build_batch(cfg, g)
    outputs = model(input_ids)
    loss = dft_compute_loss(outputs, labels)
    loss.backward()

    logits = outputs["logits"].detach()
    total, count = 0.0, 0
    for b in range(cfg["batch_size"]):
        for t in range(cfg["seq_len"] - 1):
            target = labels[b, t + 1].item()
            if target == -100:
                continue
            p = torch.softmax(logits[b, t], dim=-1)[target].item()
            total += -torch.log(torch.tensor(p)).item() * p
            count += 1
    assert abs(loss.item() - total / count) < 1e-5, (loss.item(), total / count)
    print("ok")
