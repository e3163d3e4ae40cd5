(each pos std)
