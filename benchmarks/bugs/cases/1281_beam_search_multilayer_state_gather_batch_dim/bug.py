from typing import Dict

import torch

StateType = Dict[str, torch.Tensor]


class BeamSearch:
    def __init__(self, end_index: int, beam_size: int = 3) -> None:
        self._end_index = end_index
        self.beam_size = beam_size

    def _update_state(self, state: StateType, backpointer: torch.Tensor) -> None:
        # backpointer shape: (batch_size, beam_size)
        batch_size = backpointer.size(0)
        for key, state_tensor in state.items():
            if state_tensor is None:
                continue
            multilayer_rnn_decoder = state_tensor.dim() == 3 and key in {"decoder_hidden", "decoder_context"}
            if multilayer_rnn_decoder:
                # shape: (num_layers, batch_size * beam_size, *)
                num_layers, _, *last_dims = state_tensor.size()
                expanded_backpointer = backpointer.view(
                    batch_size, self.beam_size, *([1] * len(last_dims))
                ).expand(batch_size, self.beam_size, *last_dims)
                # shape: (num_layers, batch_size, beam_size, *)
                expanded_backpointer = expanded_backpointer.unsqueeze(0).repeat(num_layers, 1, 1, 1)
                state[key] = (
                    state_tensor.reshape(num_layers, batch_size, self.beam_size, *last_dims)
                    .gather(1, expanded_backpointer)
                    .reshape(num_layers, batch_size * self.beam_size, *last_dims)
                )
            else:
                # shape: (batch_size * beam_size, *)
                _, *last_dims = state_tensor.size()
                expanded_backpointer = backpointer.view(
                    batch_size, self.beam_size, *([1] * len(last_dims))
                ).expand(batch_size, self.beam_size, *last_dims)
                state[key] = (
                    state_tensor.reshape(batch_size, self.beam_size, *last_dims)
                    .gather(1, expanded_backpointer)
                    .reshape(batch_size * self.beam_size, *last_dims)
                )


if __name__ == "__main__":
    torch.manual_seed(0)
    batch_size, beam_size, num_layers, hidden_dim = 4, 3, 2, 5
    search = BeamSearch(end_index=0, beam_size=beam_size)
    hidden = torch.randn(num_layers, batch_size * beam_size, hidden_dim)
    attended = torch.randn(batch_size * beam_size, 7)
    state = {"decoder_hidden": hidden.clone(), "encoder_outputs_mask": attended.clone()}
    backpointer = torch.randint(0, beam_size, (batch_size, beam_size))
    search._update_state(state, backpointer)

    ref = torch.empty_like(hidden)
    for layer in range(num_layers):
        for b in range(batch_size):
            for k in range(beam_size):
                ref[layer, b * beam_size + k] = hidden[layer, b * beam_size + backpointer[b, k]]
    print("decoder_hidden reordered per beam:", torch.equal(state["decoder_hidden"], ref))
    print("max abs diff:", (state["decoder_hidden"] - ref).abs().max().item())
