import torch
from jaxtyping import Float, Int


class BeamSearch:
    def __init__(self, beam_size: int, eos_id: int):
        self.beam_size = beam_size
        self.eos_id = eos_id

    def _expand_state(
        self, state: Float[torch.Tensor, "batch beam dim"], selected_beam: Int[torch.Tensor, "batch beam"]
    ) -> Float[torch.Tensor, "batch beam dim"]:
        b, k, d = state.shape
        return torch.gather(state, 1, selected_beam.unsqueeze(-1).expand(b, k, d))

    def select(
        self, candidate_logprob: Float[torch.Tensor, "batch beam vocab"]
    ) -> tuple[Float[torch.Tensor, "batch beam"], Int[torch.Tensor, "batch beam"], Int[torch.Tensor, "batch beam"]]:
        b, k, vocab = candidate_logprob.shape
        flat = candidate_logprob.view(b, -1)
        selected_logprob, selected_idx = torch.sort(flat, dim=-1, descending=True)
        selected_logprob, selected_idx = selected_logprob[:, : self.beam_size], selected_idx[:, : self.beam_size]
        selected_beam = selected_idx / candidate_logprob.shape[-1]
        selected_words = selected_idx - selected_beam * candidate_logprob.shape[-1]
        return selected_logprob, selected_beam, selected_words

    def iter(
        self,
        seq_logprob: Float[torch.Tensor, "batch beam"],
        word_logprob: Float[torch.Tensor, "batch beam vocab"],
        hidden: Float[torch.Tensor, "batch beam dim"],
    ):
        candidate = seq_logprob.unsqueeze(-1) + word_logprob
        seq_logprob, selected_beam, selected_words = self.select(candidate)
        hidden = self._expand_state(hidden, selected_beam)
        return seq_logprob, selected_words, hidden


if __name__ == "__main__":
    torch.manual_seed(0)
    searcher = BeamSearch(beam_size=3, eos_id=0)
    seq_logprob = torch.zeros(2, 3)
    word_logprob = torch.randn(2, 3, 10).log_softmax(-1)
    hidden = torch.randn(2, 3, 8)
    scores, words, hidden = searcher.iter(seq_logprob, word_logprob, hidden)
    print("scores:", scores)
    print("words:", words)
