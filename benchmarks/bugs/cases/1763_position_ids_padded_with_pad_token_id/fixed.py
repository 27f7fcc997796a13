import torch
from torch import nn


def load_config():
    return {"vocab_size": 1024, "hidden_size": 16, "max_model_len": 128, "pad_token_id": 1000}


def pad_for_prefill(prompts, cfg):
    max_len = max(len(p) for p in prompts)
    input_ids, position_ids = [], []
    for prompt in prompts:
        n_pad = max_len - len(prompt)
        input_ids.append([cfg["pad_token_id"]] * n_pad + prompt)
        position_ids.append([0] * n_pad + list(range(len(prompt))))
    return torch.tensor(input_ids), torch.tensor(position_ids)


class DecoderEmbeddings(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed_tokens = nn.Embedding(cfg["vocab_size"], cfg["hidden_size"])
        self.embed_positions = nn.Embedding(cfg["max_model_len"], cfg["hidden_size"])

    def forward(self, input_ids, position_ids):
        return self.embed_tokens(input_ids) + self.embed_positions(position_ids)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = load_config()
    prompts = [[5, 17, 99, 3, 42], [7, 8], [300, 12, 9]]
    input_ids, position_ids = pad_for_prefill(prompts, cfg)
    emb = DecoderEmbeddings(cfg)
    with torch.no_grad():
        hidden = emb(input_ids, position_ids)
    max_len = input_ids.shape[1]
    for b, prompt in enumerate(prompts):
        off = max_len - len(prompt)
        for i, tok in enumerate(prompt):
            want = emb.embed_tokens.weight[tok] + emb.embed_positions.weight[i]
            assert torch.allclose(hidden[b, off + i], want)
    print("ok")
