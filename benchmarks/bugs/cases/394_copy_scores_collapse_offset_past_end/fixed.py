import torch
from jaxtyping import Float, Int

UNK, PAD = "<unk>", "<pad>"


def build_src_vocab(tokens: list) -> list:
    """Per-example source vocabulary; index 0 is <unk> and is never copied."""
    words = [UNK]
    for t in tokens:
        if t not in words:
            words.append(t)
    return words


def copy_distribution(
    attn: Float[torch.Tensor, "batch steps src_len"],
    src_map: Float[torch.Tensor, "batch src_len n_copy"],
    gen_probs: Float[torch.Tensor, "batch steps vocab"],
    p_copy: Float[torch.Tensor, "batch steps 1"],
) -> Float[torch.Tensor, "batch steps ext"]:
    copy_probs = torch.bmm(attn, src_map)  # column j <-> src_vocab[j + 1]
    return torch.cat([gen_probs * (1 - p_copy), copy_probs * p_copy], dim=-1)


def collapse_copy_scores(
    scores: Float[torch.Tensor, "batch steps ext"], src_vocabs: list, tgt_stoi: dict
) -> Float[torch.Tensor, "batch steps ext"]:
    """Move copy mass of words that are also in the target vocab onto their target id."""
    offset = len(tgt_stoi) - 1  # src_vocab index i lives in column offset + i
    for b, src_vocab in enumerate(src_vocabs):
        pairs = [(i, tgt_stoi[w]) for i, w in enumerate(src_vocab) if i > 0 and w in tgt_stoi]
        src_ids: Int[torch.Tensor, " k"] = torch.tensor([i for i, _ in pairs])
        tgt_ids: Int[torch.Tensor, " k"] = torch.tensor([t for _, t in pairs])
        copied = scores[b].index_select(-1, offset + src_ids)
        scores[b].index_add_(-1, tgt_ids, copied)
        scores[b].index_fill_(-1, offset + src_ids, 0.0)
    return scores


def make_src_map(src_tokens: list, src_vocabs: list) -> Float[torch.Tensor, "batch src_len n_copy"]:
    n_copy = max(len(v) for v in src_vocabs) - 1
    src_len = max(len(t) for t in src_tokens)
    src_map = torch.zeros(len(src_tokens), src_len, n_copy)
    for b, (toks, vocab) in enumerate(zip(src_tokens, src_vocabs)):
        for pos, t in enumerate(toks):
            src_map[b, pos, vocab.index(t) - 1] = 1.0
    return src_map


if __name__ == "__main__":
    torch.manual_seed(0)
    tgt_stoi = {w: i for i, w in enumerate([UNK, PAD, "the", "cat", "sat", "on", "mat"])}
    src_tokens = [["the", "zebra", "sat"], ["a", "cat", "on", "the", "mat"]]
    src_vocabs = [build_src_vocab(t) for t in src_tokens]
    src_map = make_src_map(src_tokens, src_vocabs)
    B, T, L, V = 2, 3, src_map.size(1), len(tgt_stoi)
    attn = torch.softmax(torch.randn(B, T, L), dim=-1)
    gen = torch.softmax(torch.randn(B, T, V), dim=-1)
    scores = copy_distribution(attn, src_map, gen, torch.full((B, T, 1), 0.4))
    out = collapse_copy_scores(scores.clone(), src_vocabs, tgt_stoi)
    ref = scores.clone()
    for b, vocab in enumerate(src_vocabs):
        for t in range(T):
            for i, w in enumerate(vocab):
                if i > 0 and w in tgt_stoi:
                    col = V + i - 1
                    ref[b, t, tgt_stoi[w]] += ref[b, t, col]
                    ref[b, t, col] = 0.0
    assert torch.allclose(out, ref, atol=1e-6)
    print("ok")
