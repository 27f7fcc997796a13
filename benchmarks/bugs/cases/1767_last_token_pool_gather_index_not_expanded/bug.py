import torch
import torch.nn.functional as F


def make_encoder(cfg):
    torch.manual_seed(cfg["seed"])
    return {
        "embed": torch.randn(cfg["vocab_size"], cfg["hidden_size"]),
        "mix": torch.randn(cfg["hidden_size"], cfg["hidden_size"]) / cfg["hidden_size"] ** 0.5,
    }


def encode(encoder, input_ids):
    hidden = encoder["embed"][input_ids]
    return torch.tanh(torch.cumsum(hidden, dim=1) @ encoder["mix"])


def last_token_pool(hidden, lengths):
    idx = (lengths - 1).view(-1, 1, 1)
    return hidden.gather(1, idx).squeeze(1)


def embed_texts(encoder, batch):
    hidden = encode(encoder, batch["input_ids"])
    return F.normalize(last_token_pool(hidden, batch["lengths"]), dim=-1)


def make_batch(cfg, n, gen):
    lengths = torch.randint(3, cfg["max_len"] + 1, (n,), generator=gen)
    input_ids = torch.randint(1, cfg["vocab_size"], (n, cfg["max_len"]), generator=gen)
    input_ids[torch.arange(cfg["max_len"]).unsqueeze(0) >= lengths.unsqueeze(1)] = 0
    return {"input_ids": input_ids, "lengths": lengths}


if __name__ == "__main__":
    cfg = {"seed": 0, "vocab_size": 200, "hidden_size": 24, "max_len": 10}
    gen = torch.Generator().manual_seed(1)
    encoder = make_encoder(cfg)
    queries, docs = make_batch(cfg, 3, gen), make_batch(cfg, 5, gen)
    scores = embed_texts(encoder, queries) @ embed_texts(encoder, docs).T

    def ref_embed(batch):
        hidden = encode(encoder, batch["input_ids"])
        rows = [hidden[i, int(batch["lengths"][i]) - 1] for i in range(hidden.shape[0])]
        return [r / r.norm() for r in rows]

    q_ref, d_ref = ref_embed(queries), ref_embed(docs)
    ref = torch.tensor([[float(q @ d) for d in d_ref] for q in q_ref])
    print("scores:", [[round(v, 2) for v in row] for row in scores.tolist()])
    print("max |diff| vs per-row reference:", round(float((scores - ref).abs().max()), 4))
