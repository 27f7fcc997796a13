import torch
import torch.nn as nn

PAD, BOS, EOS = 0, 1, 2


class Beam(object):
    def __init__(self, size, n_best=1):
        self.size = size
        self.scores = torch.zeros(size)
        self.prevKs = []
        self.nextYs = [torch.full((size,), PAD, dtype=torch.long)]
        self.nextYs[0][0] = BOS
        self.attn = []
        self.finished = []
        self.n_best = n_best
        self.eosTop = False

    def getCurrentState(self):
        return self.nextYs[-1]

    def getCurrentOrigin(self):
        return self.prevKs[-1]

    def advance(self, wordLk, attnOut):
        numWords = wordLk.size(1)
        if len(self.prevKs) > 0:
            beamLk = wordLk + self.scores.unsqueeze(1).expand_as(wordLk)
            for i in range(self.nextYs[-1].size(0)):
                if self.nextYs[-1][i] == EOS:
                    beamLk[i] = -1e20
        else:
            beamLk = wordLk[0]
        flatBeamLk = beamLk.view(-1)
        bestScores, bestScoresId = flatBeamLk.topk(self.size, 0, True, True)
        self.scores = bestScores

        # bestScoresId indexes the flattened beam x word array: recover the beam and the word
        prevK = bestScoresId // numWords
        self.prevKs.append(prevK)
        self.nextYs.append(bestScoresId - prevK * numWords)
        self.attn.append(attnOut.index_select(0, prevK))
        if self.nextYs[-1][0] == EOS:
            self.eosTop = True

    def beam_update_gru(self, state, idx):
        positions = self.getCurrentOrigin()
        for e in state:
            br, d = e.size()
            e = e.view(self.size, br // self.size, d)
            sentStates = e[:, idx]
            sentStates.copy_(sentStates.index_select(0, positions))


class GRUDecoder(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embedding = nn.Embedding(config["tgt_vocab_size"], config["emb_size"])
        self.rnn = nn.GRUCell(config["emb_size"], config["hidden_size"])
        self.attn_proj = nn.Linear(config["hidden_size"], config["src_len"])
        self.generator = nn.Linear(config["hidden_size"], config["tgt_vocab_size"])

    def forward(self, inputs, state):
        state = self.rnn(self.embedding(inputs), state)
        attn = torch.softmax(self.attn_proj(state), dim=-1)
        return torch.log_softmax(self.generator(state), dim=-1), attn, state


def beam_sample(decoder, enc_state, config):
    beam_size, batch_size = config["beam_size"], enc_state.size(0)
    state = enc_state.repeat(beam_size, 1)
    beams = [Beam(beam_size) for _ in range(batch_size)]
    for _ in range(config["max_steps"]):
        inputs = torch.stack([b.getCurrentState() for b in beams]).t().contiguous().view(-1)
        output, attn, state = decoder(inputs, state)
        output = output.view(beam_size, batch_size, -1)
        attn = attn.view(beam_size, batch_size, -1)
        for j, b in enumerate(beams):
            b.advance(output[:, j], attn[:, j])
            b.beam_update_gru([state], j)
    return beams


def reference_beam(decoder, enc_state_row, beam_size, max_steps):
    hyps = [(0.0, [BOS], [], enc_state_row)]
    for step in range(max_steps):
        candidates = []
        for k, (score, tokens, back, state) in enumerate(hyps if step > 0 else hyps[:1]):
            logp, _, new_state = decoder(torch.tensor([tokens[-1]]), state.unsqueeze(0))
            for w in range(logp.size(1)):
                total = -1e20 if tokens[-1] == EOS else score + logp[0, w].item()
                candidates.append((total, k, w, new_state[0]))
        candidates.sort(key=lambda c: -c[0])
        hyps = [(s, hyps[k][1] + [w], hyps[k][2] + [k], st) for s, k, w, st in candidates[:beam_size]]
    return hyps


if __name__ == "__main__":
    torch.manual_seed(0)
    config = {"tgt_vocab_size": 13, "emb_size": 6, "hidden_size": 8, "src_len": 5, "beam_size": 3, "max_steps": 3}
    decoder = GRUDecoder(config)
    enc_state = torch.randn(2, config["hidden_size"])
    with torch.no_grad():
        beams = beam_sample(decoder, enc_state, config)
        for j, beam in enumerate(beams):
            ref = reference_beam(decoder, enc_state[j], config["beam_size"], config["max_steps"])
            assert beam.nextYs[-1].tolist() == [tokens[-1] for _, tokens, _, _ in ref]
            assert [k.tolist() for k in beam.prevKs][-1] == [back[-1] for _, _, back, _ in ref]
            assert torch.allclose(beam.scores, torch.tensor([s for s, _, _, _ in ref]), atol=1e-4)
    print("back-pointers of the first beam:", [k.tolist() for k in beams[0].prevKs])
    print("ok")
