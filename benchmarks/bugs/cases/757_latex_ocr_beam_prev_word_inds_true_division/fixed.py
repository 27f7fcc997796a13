import torch
import torch.nn as nn

cfg = {"vocab_size": 30, "embed_dim": 12, "hidden": 16, "beam_size": 3, "max_len": 6, "start_id": 1, "end_id": 2}


class TinyDecoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg["vocab_size"], cfg["embed_dim"])
        self.cell = nn.GRUCell(cfg["embed_dim"], cfg["hidden"])
        self.fc = nn.Linear(cfg["hidden"], cfg["vocab_size"])


def beam_search(decoder, enc_state, cfg):
    k, vocab = cfg["beam_size"], cfg["vocab_size"]
    k_prev_words = torch.full((k,), cfg["start_id"], dtype=torch.long)
    seqs = k_prev_words.unsqueeze(1)
    top_k_scores = torch.zeros(k, 1)
    h = enc_state.expand(k, -1).contiguous()
    for step in range(cfg["max_len"]):
        h = decoder.cell(decoder.embed(k_prev_words), h)
        scores = torch.log_softmax(decoder.fc(h), dim=1)
        scores = top_k_scores.expand_as(scores) + scores
        if step == 0:
            top_k_scores, top_k_words = scores[0].topk(k, 0)
        else:
            top_k_scores, top_k_words = scores.view(-1).topk(k, 0)
        prev_word_inds = torch.div(top_k_words, vocab, rounding_mode="floor")
        next_word_inds = top_k_words % vocab
        seqs = torch.cat([seqs[prev_word_inds], next_word_inds.unsqueeze(1)], dim=1)
        h = h[prev_word_inds]
        k_prev_words = next_word_inds
        top_k_scores = top_k_scores.unsqueeze(1)
    return seqs, top_k_scores.squeeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    dec = TinyDecoder(cfg)
    with torch.no_grad():
        enc = torch.randn(1, cfg["hidden"])
        seqs, scores = beam_search(dec, enc, cfg)
        # reference: exhaustive-free check -- rescore every returned beam step by step
        for b in range(seqs.shape[0]):
            h = enc.clone()
            total = 0.0
            for t in range(1, seqs.shape[1]):
                h = dec.cell(dec.embed(seqs[b, t - 1 : t]), h)
                total += float(torch.log_softmax(dec.fc(h), dim=1)[0, int(seqs[b, t])])
            assert abs(total - float(scores[b])) < 1e-4
        assert float(scores[0]) >= float(scores[-1])
    print("ok")
