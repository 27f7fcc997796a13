from types import SimpleNamespace

import torch
import torch.nn as nn


class TinyVLMTextDecoder(nn.Module):
    def __init__(self, vocab_size, hidden_size, num_layers, return_all_layers):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.layers = nn.ModuleList(nn.Linear(hidden_size, hidden_size) for _ in range(num_layers))
        self.lm_head = nn.Linear(hidden_size, vocab_size, bias=False)
        self.return_all_layers = return_all_layers

    def forward(self, input_ids, output_hidden_states=True):
        h = self.embed_tokens(input_ids)
        states = [h]
        for layer in self.layers:
            h = h + torch.tanh(layer(h))
            states.append(h)
        # some VLM text towers hand back only the final hidden state, not a per-layer tuple
        hidden_states = tuple(states) if self.return_all_layers else h
        return SimpleNamespace(hidden_states=hidden_states if output_hidden_states else None)


def get_final_hidden_states(out):
    hs = out.hidden_states
    return hs[-1] if isinstance(hs, (tuple, list)) else hs


def fused_linear_cross_entropy(hidden, lm_head_weight, labels, ignore_index=-100):
    logits = (hidden @ lm_head_weight.t()).float()
    log_probs = logits.log_softmax(dim=-1)
    valid = labels != ignore_index
    token_logp = log_probs.gather(-1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1)
    return -(token_logp * valid).sum() / valid.sum()


def train_step_loss(model, batch):
    out = model(batch["input_ids"], output_hidden_states=True)
    return fused_linear_cross_entropy(get_final_hidden_states(out), model.lm_head.weight, batch["labels"])


def validation_loss(model, batch):
    out = model(batch["input_ids"], output_hidden_states=True)
    hidden = out.hidden_states[-1]
    return fused_linear_cross_entropy(hidden, model.lm_head.weight, batch["labels"])


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyVLMTextDecoder(vocab_size=50, hidden_size=16, num_layers=2, return_all_layers=False)
    input_ids = torch.randint(0, 50, (2, 7))
    labels = torch.cat([input_ids[:, 1:], torch.full((2, 1), -100)], dim=1)
    labels[0, :2] = -100
    batch = {"input_ids": input_ids, "labels": labels}
    with torch.no_grad():
        print("train loss:", train_step_loss(model, batch).item())
        val = validation_loss(model, batch)
        h = model(input_ids).hidden_states
        terms = []
        for b in range(2):
            for t in range(7):
                if labels[b, t] != -100:
                    logits = model.lm_head(h[b, t])
                    terms.append(logits.logsumexp(0) - logits[labels[b, t]])
    ref = torch.stack(terms).mean()
    print("validation loss:", val.item(), "per-token reference:", ref.item())
