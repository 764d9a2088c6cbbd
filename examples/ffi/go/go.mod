module example.org/libpoker-go

go 1.19
