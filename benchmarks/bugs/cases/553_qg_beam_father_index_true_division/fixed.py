import torch


class BeamSearcher:
    def __init__(self, beam_size, bos_id, eos_id):
        self.size = beam_size
        self.eos = eos_id
        self.scores = torch.zeros(beam_size)                 # [K]
        self.prev_ks = []                                     # list of [K]
        self.next_ys = [torch.full((beam_size,), bos_id, dtype=torch.long)]
        self.attn = []                                        # list of [K, src_len]

    def advance(self, word_logprobs, attn_out):
        # word_logprobs: [K, vocab + src_len]  (generator vocab extended with copy positions)
        # attn_out:      [K, src_len]
        num_words = word_logprobs.size(1)
        if self.prev_ks:
            beam_lk = word_logprobs + self.scores.unsqueeze(1)
        else:
            beam_lk = word_logprobs[0:1]
        flat = beam_lk.reshape(-1)                            # [K * (vocab + src_len)]
        best_scores, best_ids = flat.topk(self.size, 0, True, True)
        self.scores = best_scores
        father_beam_idx = torch.div(best_ids, num_words, rounding_mode="floor")  # [K]
        self.prev_ks.append(father_beam_idx)
        self.next_ys.append(best_ids - father_beam_idx * num_words)
        self.attn.append(attn_out.index_select(0, father_beam_idx))
        return self.next_ys[-1]


def run_decoder(step_fn, searcher, steps):
    tokens = searcher.next_ys[-1]
    for _ in range(steps):
        logprobs, attn = step_fn(tokens)
        tokens = searcher.advance(logprobs, attn)
    return searcher


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab, src_len, beam = 20, 7, 3
    record = []

    def step_fn(tokens):
        logits = torch.randn(tokens.size(0), vocab + src_len)
        attn = torch.softmax(torch.randn(tokens.size(0), src_len), dim=-1)
        record.append((torch.log_softmax(logits, dim=-1), attn))
        return record[-1]

    searcher = run_decoder(step_fn, BeamSearcher(beam, bos_id=1, eos_id=2), steps=3)

    scores = [0.0] * beam
    for t, (lp, attn) in enumerate(record):
        cands = []
        rows = 1 if t == 0 else beam
        for k in range(rows):
            for w in range(vocab + src_len):
                cands.append((lp[k, w].item() + (scores[k] if t else 0.0), k, w))
        cands.sort(key=lambda c: -c[0])
        top = cands[:beam]
        assert searcher.prev_ks[t].tolist() == [c[1] for c in top]
        assert searcher.next_ys[t + 1].tolist() == [c[2] for c in top]
        for i, c in enumerate(top):
            assert torch.equal(searcher.attn[t][i], attn[c[1]])
        scores = [c[0] for c in top]
    assert torch.allclose(searcher.scores, torch.tensor(scores))
    print("ok")
