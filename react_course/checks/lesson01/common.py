"""What lesson 01's exercises share: the Paris question and two observations."""

from __future__ import annotations

QUESTION = "How tall is the tower in Paris that opened in 1889?"
NO_PAGE = ("No page matches 'Paris tower 1889'. search finds pages by the name of their subject: "
           "try the exact name of the person, place, company or thing, not a description.")
EIFFEL = ("[Eiffel Tower] The Eiffel Tower is a wrought-iron lattice tower in Paris. "
          "With the broadcasting antennas on its top it is 330 m tall.")

