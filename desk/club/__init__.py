"""A club rating's desk (issue 25): its pages by area, their forms and tables."""
