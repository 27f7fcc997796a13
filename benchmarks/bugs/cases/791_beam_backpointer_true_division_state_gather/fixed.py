import torch


class BeamSearch:
    def __init__(self, beam_size: int = 3, max_steps: int = 4):
        self.beam_size = beam_size
        self.max_steps = max_steps

    def _reorder_state(self, state, backpointer, batch_size):
        # state[key]: (batch * beam, *dims), backpointer: (batch, beam)
        for key, tensor in state.items():
            _, *dims = tensor.size()
            idx = backpointer.view(batch_size, self.beam_size, *([1] * len(dims)))
            idx = idx.expand(batch_size, self.beam_size, *dims)
            # (batch, beam, *dims) -> pick parent beam along dim 1
            grouped = tensor.reshape(batch_size, self.beam_size, *dims)
            state[key] = grouped.gather(1, idx).reshape(batch_size * self.beam_size, *dims)
        return state

    def search(self, start_logp, state, step):
        # start_logp: (batch, num_classes)
        batch_size, num_classes = start_logp.size()
        last_logp, first = start_logp.topk(self.beam_size)  # (batch, beam)
        predictions, backpointers = [first], []
        for key, t in state.items():
            _, *dims = t.size()
            state[key] = t.unsqueeze(1).expand(batch_size, self.beam_size, *dims).reshape(-1, *dims)
        for _ in range(self.max_steps - 1):
            class_logp, state = step(predictions[-1].reshape(-1), state)  # (batch * beam, num_classes)
            summed = (class_logp + last_logp.reshape(-1, 1)).reshape(batch_size, -1)
            last_logp, flat_idx = summed.topk(self.beam_size)  # (batch, beam)
            predictions.append(flat_idx % num_classes)
            backpointer = flat_idx // num_classes
            backpointers.append(backpointer)
            state = self._reorder_state(state, backpointer, batch_size)
        return predictions, backpointers, last_logp


class ToyDecoder:
    def __init__(self, vocab=6, hidden=4):
        g = torch.Generator().manual_seed(0)
        self.emb = torch.randn(vocab, hidden, generator=g)
        self.out = torch.randn(hidden, vocab, generator=g)

    def __call__(self, tokens, state):
        h = 0.5 * state["h"] + self.emb[tokens]
        return torch.log_softmax(h @ self.out, dim=-1), {"h": h}


if __name__ == "__main__":
    dec = ToyDecoder()
    h0 = torch.randn(2, 4, generator=torch.Generator().manual_seed(1))
    start = torch.log_softmax(h0 @ dec.out, dim=-1)
    preds, bps, scores = BeamSearch().search(start, {"h": h0}, dec)
    for b in range(2):
        for k in range(3):
            seq, j = [], k  # follow backpointers from the last step
            for t in range(len(preds) - 1, -1, -1):
                seq.append(int(preds[t][b, j]))
                if t > 0:
                    j = int(bps[t - 1][b, j])
            seq.reverse()
            h, total = h0[b:b + 1], float(start[b, seq[0]])
            for prev, nxt in zip(seq[:-1], seq[1:]):
                logp, st = dec(torch.tensor([prev]), {"h": h})
                h, total = st["h"], total + float(logp[0, nxt])
            assert abs(total - float(scores[b, k])) < 1e-5, (b, k, total, float(scores[b, k]))
    print("ok")
