import torch
import torch.nn as nn


class OPTForCausalLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embed_tokens = nn.Embedding(config["vocab_size"], config["hidden_size"], padding_idx=config["pad_token_id"])
        self.embed_positions = nn.Embedding(config["max_position_embeddings"], config["hidden_size"])
        self.mix = nn.Linear(config["hidden_size"], config["hidden_size"])
        self.lm_head = nn.Linear(config["hidden_size"], config["vocab_size"], bias=False)

    def decoder(self, input_ids, attention_mask):
        positions = (attention_mask.cumsum(dim=1) - 1).clamp(min=0)
        h = (self.embed_tokens(input_ids) + self.embed_positions(positions)) * attention_mask.unsqueeze(-1)
        prefix_mean = h.cumsum(dim=1) / attention_mask.cumsum(dim=1).clamp(min=1).unsqueeze(-1)
        return torch.tanh(self.mix(prefix_mean))

    def forward(self, input_ids, attention_mask, labels=None):
        logits = self.lm_head(self.decoder(input_ids, attention_mask))
        loss = None
        if labels is not None:
            logprobs = logits.log_softmax(dim=-1)
            token_logprobs = logprobs.gather(-1, labels.unsqueeze(-1)).squeeze(-1)
            weights = attention_mask.float()
            loss = -(token_logprobs * weights).sum() / weights.sum()
        return logits, loss


def tokenize(texts, vocab, pad_token_id):
    ids = [[vocab.setdefault(w, len(vocab)) for w in t.split()] for t in texts]
    width = max(len(x) for x in ids)
    input_ids = torch.tensor([x + [pad_token_id] * (width - len(x)) for x in ids])
    attention_mask = torch.tensor([[1] * len(x) + [0] * (width - len(x)) for x in ids])
    return input_ids, attention_mask


if __name__ == "__main__":
    torch.manual_seed(0)
    config = {"vocab_size": 64, "hidden_size": 32, "max_position_embeddings": 16, "pad_token_id": 1}
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2}
    texts = ["<s> the cat sat on the mat </s>", "<s> a dog ran </s>"]
    input_ids, attention_mask = tokenize(texts, vocab, config["pad_token_id"])
    model = OPTForCausalLM(config)
    for step in range(30):
        _, loss = model(input_ids, attention_mask, labels=input_ids)
        model.zero_grad()
        loss.backward()
        with torch.no_grad():
            for param in model.parameters():
                param -= 2.0 * param.grad
    print("final training loss:", round(loss.item(), 4))
