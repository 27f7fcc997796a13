import torch
import torch.nn as nn


class PeptideDecoder(nn.Module):
    """Autoregressive decoder over amino-acid tokens conditioned on encoded spectra."""

    def __init__(self, vocab_size, dim):
        super().__init__()
        self.aa_encoder = nn.Embedding(vocab_size, dim)
        self.precursor_proj = nn.Linear(2, dim)
        self.mix = nn.Linear(2 * dim, dim)
        self.final = nn.Linear(dim, vocab_size)

    def forward(self, tokens, precursors, memory):
        """
        Parameters
        ----------
        tokens : torch.Tensor of shape (n_spectra, n_steps)
            Amino-acid tokens decoded so far (may have zero columns).
        precursors : torch.Tensor of shape (n_spectra, 2)
            Precursor mass and charge.
        memory : torch.Tensor of shape (n_spectra, n_peaks, dim)
            Encoded peaks.

        Returns
        -------
        scores : torch.Tensor of shape (n_spectra, n_steps + 1, vocab_size)
            Log-probabilities for the next token at every position.
        """
        start = self.precursor_proj(precursors).unsqueeze(1)
        steps = torch.cat([start, self.aa_encoder(tokens)], dim=1)
        context = memory.mean(dim=1, keepdim=True).expand(-1, steps.shape[1], -1)
        hidden = torch.tanh(self.mix(torch.cat([steps, context], dim=-1)))
        return torch.log_softmax(self.final(hidden), dim=-1)


class Spec2Pep(nn.Module):
    def __init__(self, vocab_size=12, dim=16, n_beams=3, max_length=6, stop_token=0):
        super().__init__()
        self.decoder = PeptideDecoder(vocab_size, dim)
        self.vocab_size = vocab_size
        self.n_beams = n_beams
        self.max_length = max_length
        self.stop_token = stop_token

    @torch.no_grad()
    def beam_search_decode(self, memory, precursors):
        """
        Parameters
        ----------
        memory : torch.Tensor of shape (n_spectra, n_peaks, dim)
        precursors : torch.Tensor of shape (n_spectra, 2)

        Returns
        -------
        tokens : torch.Tensor of shape (n_spectra * n_beams, max_length)
        scores : torch.Tensor of shape (n_spectra * n_beams, max_length + 1, vocab_size)
        """
        batch, beam = memory.shape[0], self.n_beams
        scores = torch.full((batch, self.max_length + 1, self.vocab_size, beam), torch.nan)
        tokens = torch.zeros(batch, self.max_length, beam, dtype=torch.long)

        pred = self.decoder(tokens[:, :0, 0], precursors, memory)
        tokens[:, 0, :] = torch.topk(pred[:, 0, :], beam, dim=1)[1]
        scores[:, :1, :, :] = pred.unsqueeze(-1).expand(-1, -1, -1, beam)

        tokens = tokens.permute(0, 2, 1).reshape(batch * beam, self.max_length)
        scores = scores.permute(0, 3, 1, 2).reshape(batch * beam, self.max_length + 1, self.vocab_size)
        memory = memory.repeat_interleave(beam, dim=0)
        precursors = precursors.repeat_interleave(beam, dim=0)
        finished = torch.zeros(batch * beam, dtype=torch.bool)

        for step in range(0, self.max_length - 1):
            finished |= tokens[:, step] == self.stop_token
            active_beams = ~finished
            if not active_beams.any():
                break
            active_scores = self.decoder(tokens[active_beams, : step + 1], precursors[active_beams], memory[active_beams])
            scores[active_beams, : step + 2, :] = active_scores
            tokens[active_beams, step + 1] = active_scores[:, -1, :].argmax(dim=-1)
        return tokens, scores


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Spec2Pep()
    memory = torch.randn(2, 9, 16)
    precursors = torch.tensor([[812.4, 2.0], [1033.5, 3.0]])
    # predict with precision="bf16-mixed"
    with torch.autocast("cpu", dtype=torch.bfloat16):
        tokens, scores = model.beam_search_decode(memory, precursors)
    print("decoded:", tokens.tolist())
